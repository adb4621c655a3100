/** Markup a drawing's tiles never show, warned about with the element, its line and its layer. */
import { describe, expect, it } from 'vitest';
import { matchLayers, parseSvg } from './svg-doc';
import { unrenderedWarnings } from './unrendered';

const warningsOf = (text: string) => {
  const root = parseSvg(text);
  return unrenderedWarnings(text, root, matchLayers(root, { main: ['main'], level2: ['Second_Floor'] }));
};

const DRAWING = [
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100" onload="init()">',
  '<script>alert(1)</script>',
  '<g id="main"><rect id="door" width="10" height="10" onclick="open()" onmouseover="hi()"/>',
  '<image id="sat" href="http://example.com/sat.png" width="10" height="10"/></g>',
  '<g inkscape:label="Second_Floor" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"><g>',
  '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml" onclick="x()">note</div></foreignObject>',
  '<image xlink:href="roads.png" width="5" height="5"/><image href="data:image/png;base64,AAAA" width="5" height="5"/></g></g>',
  '</svg>',
].join('\n');

describe('unrenderedWarnings', () => {
  it('names each kind once, with the element, its line and its layer', () => {
    expect(warningsOf(DRAWING)).toEqual([
      '<script> is never run (a tile is a picture): <script> at line 2 (outside every layer)',
      'event handlers (on…) are never run (a tile is a picture): onload of <svg> at line 1 (outside every layer); ' +
        'onclick of <rect id="door"> at line 3 (layer "main"); onmouseover of <rect id="door"> at line 3 (layer "main")',
      '<foreignObject> (HTML inside SVG) is not drawn: <foreignObject> at line 6 (layer "level2")',
      'linked images are never fetched, so not drawn (embed them as data: URIs): "http://example.com/sat.png" of <image id="sat"> at line 4 (layer "main")',
      "images linked by file path are looked up from the server's working directory, not the drawing's folder, so are likely not drawn " +
        '(embed them as data: URIs): "roads.png" of <image> at line 7 (layer "level2")',
    ]);
  });

  it('lists three places of a kind and counts the rest', () => {
    const rects = Array.from({ length: 5 }, (_, i) => `<rect id="r${i}" onclick="f()"/>`).join('');
    const [w] = warningsOf(`<svg xmlns="http://www.w3.org/2000/svg"><g id="main">${rects}</g></svg>`);
    expect(w).toMatch(/r0.*r1.*r2"> at line 1 \(layer "main"\); and 2 more$/);
    expect(w).not.toContain('r3');
  });

  it('has nothing to say of a drawing that is pictures only, nor of other namespaces', () => {
    expect(warningsOf('<svg xmlns="http://www.w3.org/2000/svg"><g id="main"><rect onclick-free="1" width="1" height="1"/>' +
      '<image href="data:image/png;base64,AAAA"/><x:script xmlns:x="urn:other"/></g></svg>')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { SvgSourceError, findLayer, layerSvg, parseSvg, regionSvg, sourceViewBox } from './svg-doc';

const DOC = `<?xml version="1.0"?>
<!-- a <comment> with <tags> -->
<!DOCTYPE svg [ <!ENTITY x "y"> ]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="200" height="100" viewBox="0 0 400 200">
  <defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>
  <style><![CDATA[ #main > rect { fill: red } ]]></style>
  <g id="main" style="display:inline;opacity:1"><rect width="10" height="10"/></g>
  <g id="layer7" inkscape:label="Level2" style="display:none"><rect width="5" height="5"/></g>
  <g id="wrap"><g data-name="basement" display="none"><path d="M0 0"/></g></g>
  <rect id="loose" width="3" height="3"/>
</svg>`;

describe('parseSvg', () => {
  it('finds elements and attributes, skipping comments, CDATA and the DOCTYPE', () => {
    const root = parseSvg(DOC);
    expect(root.name).toBe('svg');
    expect(root.attrs.get('viewBox')).toBe('0 0 400 200');
    expect(root.children.map((c) => c.attrs.get('id') ?? c.name)).toEqual(['defs', 'style', 'main', 'layer7', 'wrap', 'loose']);
    expect(DOC.slice(root.children[2].start, root.children[2].tagEnd)).toBe('<g id="main" style="display:inline;opacity:1">');
  });

  it('decodes entities in attribute values', () => {
    const root = parseSvg(`<svg xmlns="http://www.w3.org/2000/svg"><g inkscape:label="Roads &amp; rails &#x41;"/></svg>`);
    expect(root.children[0].attrs.get('inkscape:label')).toBe('Roads & rails A');
  });

  it.each([
    ['', 'no root element'],
    ['<html><body/></html>', 'not <svg>'],
    ['<svg><g></svg>', 'does not match'],
    ['<svg><g>', 'never closed'],
    ['<svg width=100></svg>', 'unquoted'],
    ['<svg><!-- open', 'unterminated comment'],
    ['<svg></svg><svg></svg>', 'more than one root'],
  ])('rejects %j with a clear SvgSourceError', (text, words) => {
    expect(() => parseSvg(text)).toThrow(SvgSourceError);
    expect(() => parseSvg(text)).toThrow(words);
  });
});

describe('findLayer', () => {
  const root = parseSvg(DOC);
  it('finds by id, then by inkscape:label or data-name, then ignoring case', () => {
    expect(findLayer(root, 'main')?.attrs.get('id')).toBe('main');
    expect(findLayer(root, 'level2')?.attrs.get('id')).toBe('layer7');
    expect(findLayer(root, 'basement')?.attrs.get('data-name')).toBe('basement');
    expect(findLayer(root, 'level3')).toBeUndefined();
  });

  it('never takes a definition for a layer', () => {
    const doc = parseSvg('<svg><defs><pattern id="parking"/></defs><symbol id="main"/><g id="x" inkscape:label="parking"/></svg>');
    expect(findLayer(doc, 'parking')?.attrs.get('id')).toBe('x');
    expect(findLayer(doc, 'main')).toBeUndefined();
  });
});

describe('sourceViewBox', () => {
  it('uses the viewBox, else width and height in px (with units), else the map size', () => {
    expect(sourceViewBox(parseSvg(DOC), { width: 1, height: 1 })).toEqual({ x: 0, y: 0, width: 400, height: 200 });
    expect(sourceViewBox(parseSvg('<svg width="96px" height="1in"/>'), { width: 1, height: 1 })).toEqual({ x: 0, y: 0, width: 96, height: 96 });
    expect(sourceViewBox(parseSvg('<svg width="100%"/>'), { width: 640, height: 480 })).toEqual({ x: 0, y: 0, width: 640, height: 480 });
    expect(() => sourceViewBox(parseSvg('<svg viewBox="0 0 0 10"/>'), { width: 1, height: 1 })).toThrow('bad viewBox');
  });
});

describe('layerSvg', () => {
  const root = parseSvg(DOC);
  const opts = { layers: ['basement', 'main', 'level2'], baseLayer: 'main' };
  const size = { width: 400, height: 200 };
  const tagOf = (text: string, id: string) => text.match(new RegExp(`<[^>]*(id|data-name)="${id}"[^>]*>`))?.[0];

  it('hides the other layers and, for an upper layer, the loose content; shows the target even if hidden', () => {
    const l = layerSvg(DOC, root, 'level2', opts, size);
    expect(l.found).toBe(true);
    expect(tagOf(l.body, 'main')).toBe('<g id="main" style="opacity:1;display:none">');
    expect(tagOf(l.body, 'layer7')).toContain('style="display:inline"');
    expect(tagOf(l.body, 'basement')).toContain('display:none');
    expect(tagOf(l.body, 'loose')).toContain('display:none');
    // Definitions are untouched.
    expect(l.body).toContain('<defs><linearGradient id="g">');
  });

  it('keeps the loose content for the base layer', () => {
    const l = layerSvg(DOC, root, 'main', opts, size);
    expect(tagOf(l.body, 'loose')).toBe('<rect id="loose" width="3" height="3"/>');
    expect(tagOf(l.body, 'layer7')).toContain('display:none');
  });

  it('reports a missing layer', () => {
    expect(layerSvg(DOC, root, 'level9', { ...opts, layers: [...opts.layers, 'level9'] }, size).found).toBe(false);
  });

  it('draws a region: root sized in pixels, viewBox in source units', () => {
    const l = layerSvg(DOC, root, 'main', opts, { width: 800, height: 400 });
    const svg = regionSvg(l, { mapX: 400, mapY: 200, scale: 2, outWidth: 256, outHeight: 128 }, { width: 800, height: 400 });
    const rootTag = svg.match(/<svg[^>]*>/)![0];
    // Map 800×400 over source 400×200: map (400, 200) is source (200, 100); 256 px at scale 2 is 128 map px = 64 source units.
    expect(rootTag).toContain('width="256"');
    expect(rootTag).toContain('height="128"');
    expect(rootTag).toContain('viewBox="200 100 64 32"');
    expect(rootTag).toContain('preserveAspectRatio="none"');
    expect(rootTag).toContain('xmlns:inkscape=');
    expect(svg.startsWith('<?xml')).toBe(true);
    expect(() => parseSvg(svg)).not.toThrow();
  });
});

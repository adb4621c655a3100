import { afterAll, describe, expect, it } from 'vitest';
import { mapToDrawing } from '../../src/domain/map-art';
import { MAPS } from '../../src/domain/maps';
import { maxTileZ, tileScale } from '../../src/domain/tiles';
import { disposeNormalizer, normalizeLayer } from './normalize';
import {
  SVG_NAMESPACE, SvgSourceError, declaredEntities, drawingText, findLayer, isNonRendering, layerSvg, matchLayers, parseSvg, regionSvg,
  sizeFallbackWarning, sourceViewBox, viewBoxDecimals, type SvgElement,
} from './svg-doc';

afterAll(() => disposeNormalizer());

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

  it("warns when the box is the map's size for want of a viewBox and an absolute width/height", () => {
    const size = { width: 4400, height: 3200 };
    const warning = (svg: string) => sizeFallbackWarning(parseSvg(svg), size);
    expect(warning('<svg viewBox="0 0 10 10" width="100%"/>')).toBeUndefined();
    expect(warning('<svg width="200mm" height="100"/>')).toBeUndefined();
    expect(warning('<svg/>')).toBe("the drawing has no viewBox and no absolute width/height: taken as the map's size 4400×3200; give it a viewBox");
    expect(warning('<svg width="100%" height="100%"/>')).toBe(
      'the drawing has no viewBox and no absolute width/height (width="100%", height="100%"): taken as the map\'s size 4400×3200; give it a viewBox',
    );
    expect(warning('<svg width="50em" height="300"/>')).toBe(
      'the drawing has no viewBox and no absolute width (width="50em"): its width taken as the map\'s (4400), a box of 4400×300; give it a viewBox',
    );
  });
});

describe('matchLayers and exclude', () => {
  const text = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="x"><g inkscape:label="Ground_Level"><rect/></g><g id="Legend"/><linearGradient id="Frame"/></svg>';

  it('lists the names of exclude that find no group (a gradient is none), each once', () => {
    const match = matchLayers(parseSvg(text), { main: ['Ground_Level'] }, ['Legnd', 'legend', 'Frame', 'LEGND']);
    expect(match.excludeNotFound).toEqual(['Legnd', 'Frame']);
    expect(match.excluded.map((el) => el.attrs.get('id'))).toEqual(['Legend']);
    expect(match.excludeFloors).toEqual([]);
  });

  it('lists the names of exclude that find a floor, which stays its layer and is drawn', () => {
    const doc = parseSvg(text);
    const match = matchLayers(doc, { main: ['Ground_Level'] }, ['ground_level']);
    expect(match.excludeFloors).toEqual([{ name: 'ground_level', layer: 'main' }]);
    expect(match.excludeNotFound).toEqual([]);
    expect(match.excluded).toEqual([]);
    const l = layerSvg(text, doc, 'main', { layers: ['main'], baseLayer: 'main', match }, { width: 100, height: 100 });
    expect(l.found).toBe(true);
    expect(l.body).toContain('inkscape:label="Ground_Level" style="display:inline;visibility:visible"');
  });
  it('lists a wrapper named in exclude with the floors it holds: they are drawn, the rest of it is left out', () => {
    const wrapped =
      '<svg xmlns="http://www.w3.org/2000/svg"><g id="Everything"><g id="Ground_Level"><rect id="floor1"/></g><g id="Second_Floor"><rect id="floor2"/></g><g id="Labels"><text>Dorms</text></g></g><g id="Legend"/></svg>';
    const doc = parseSvg(wrapped);
    const match = matchLayers(doc, { main: ['Ground_Level'], level2: ['Second_Floor'] }, ['everything', 'Legend']);
    expect(match.excludeHoldsFloors).toEqual([{ name: 'everything', layers: ['main', 'level2'] }]);
    expect(match.excludeFloors).toEqual([]);
    expect(match.excludeNotFound).toEqual([]);
    const l = layerSvg(wrapped, doc, 'main', { layers: ['main', 'level2'], baseLayer: 'main', match }, { width: 100, height: 100 });
    expect(l.body).toContain('<rect id="floor1"/>');
    expect(l.body).toMatch(/<g id="Labels" style="display:none[^"]*">/);
  });

  it('lists no wrapper for an excluded group that holds no floor', () => {
    const match = matchLayers(parseSvg(text), { main: ['Ground_Level'] }, ['Legend']);
    expect(match.excludeHoldsFloors).toEqual([]);
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
    expect(tagOf(l.body, 'layer7')).toContain('style="display:inline;visibility:visible"');
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

  it('keeps the deepest tiles of a tiny drawing non-degenerate (to a thousandth of a pixel)', () => {
    const map = MAPS.customs;
    const tiny = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0.00001 0.0000075"><g id="main"><rect width="0.00001" height="0.0000075"/></g></svg>';
    const l = layerSvg(tiny, parseSvg(tiny), 'main', { layers: ['main'], baseLayer: 'main' }, map.size);
    const scale = tileScale(maxTileZ(map));
    const region = { mapX: 2200 + 1 / 3, mapY: 1600 + 1 / 7, scale, outWidth: 256, outHeight: 256 };
    const vb = regionSvg(l, region, map.size).match(/viewBox="([^"]*)"/)![1].split(' ').map(Number);
    const from = mapToDrawing(l.place!, l.viewBox, region);
    const to = mapToDrawing(l.place!, l.viewBox, { mapX: region.mapX + 256 / scale, mapY: region.mapY + 256 / scale });
    const pixel = (to.x - from.x) / 256;
    expect(vb[2]).toBeGreaterThan(0);
    expect(vb[3]).toBeGreaterThan(0);
    [from.x, from.y, to.x - from.x, to.y - from.y].forEach((expected, i) => expect(Math.abs(vb[i] - expected), `viewBox[${i}]`).toBeLessThan(pixel / 1000));
    // Ordinary drawings keep the 6 decimals they always had (the community's 1062 units over 4048 map px, at 32× and at 1/8).
    expect(viewBoxDecimals(1062 / 4048 / 32)).toBe(6);
    expect(viewBoxDecimals((1062 / 4048) * 8)).toBe(6);
  });
});

/** Every element of a document, depth first. */
function elements(el: SvgElement): SvgElement[] {
  return [el, ...el.children.flatMap(elements)];
}

const byId = (root: SvgElement, id: string) => elements(root).find((el) => el.attrs.get('id') === id)!;

describe('entities declared in the DOCTYPE (Illustrator)', () => {
  const ILLUSTRATOR = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
  <!ENTITY ns_svg "http://www.w3.org/2000/svg">
  <!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
  <!-- a comment with a ] and a > in it -->
  <!ENTITY ground "Ground_&amp;_Level">
  <!ENTITY colour "#c83232">
]>
<svg xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" viewBox="0 0 100 50">
  <g id="Ground_Level" data-name="&ground;"><rect width="100" height="50" fill="&colour;"/></g>
  <g id="odd" data-name="A &unknown; B"/>
  <text id="note">Gate&nbsp;3 &amp; &ground;<!-- &comment; --><![CDATA[ &cdata; ]]></text>
</svg>`;

  it('decodes them in attribute values', () => {
    const root = parseSvg(ILLUSTRATOR);
    expect(root.attrs.get('xmlns')).toBe(SVG_NAMESPACE);
    expect(root.attrs.get('xmlns:xlink')).toBe('http://www.w3.org/1999/xlink');
    expect(byId(root, 'Ground_Level').attrs.get('data-name')).toBe('Ground_&_Level');
    // An undeclared entity stays as written.
    expect(byId(root, 'odd').attrs.get('data-name')).toBe('A &unknown; B');
  });

  it('writes no entity back unresolved, and an unknown one as literal text', () => {
    const root = parseSvg(ILLUSTRATOR);
    const layer = layerSvg(ILLUSTRATOR, root, 'main', { layers: ['main'], baseLayer: 'main', match: matchLayers(root, { main: ['Ground_Level'] }) }, { width: 200, height: 100 });
    const svg = regionSvg(layer, { mapX: 0, mapY: 0, scale: 1, outWidth: 200, outHeight: 100 }, { width: 200, height: 100 });
    expect(svg.match(/<svg[^>]*>/)![0]).toContain(`xmlns="${SVG_NAMESPACE}"`);
    expect(svg).not.toContain('&amp;ns_');
    expect(parseSvg(svg).attrs.get('xmlns')).toBe(SVG_NAMESPACE);
    // Undeclared entities become the text they show; declared ones are left to the DOCTYPE kept in the head.
    expect(svg).toContain('data-name="A &amp;unknown; B"');
    expect(svg).toContain('Gate&amp;nbsp;3 &amp; &ground;<!-- &comment; --><![CDATA[ &cdata; ]]>');
    expect(svg).toContain('<!ENTITY ground');
  });

  it('is read by resvg: the floor draws', async () => {
    const root = parseSvg(ILLUSTRATOR);
    const plan = layerSvg(ILLUSTRATOR, root, 'main', { layers: ['main'], baseLayer: 'main', match: matchLayers(root, { main: ['Ground_Level'] }) }, { width: 200, height: 100 });
    const layer = await normalizeLayer(plan, { map: 'test', layer: 'main' });
    expect(layer.body).toMatch(/fill="#c83232"/);
  });

  it('resolves entities made of entities, and refuses loops and bombs', () => {
    expect(declaredEntities('<!ENTITY a "x&b;&#65;"><!ENTITY b "y"><!ENTITY a "ignored"><!ENTITY % p "param">')).toEqual(new Map([['a', 'xyA'], ['b', 'y']]));
    expect(() => declaredEntities('<!ENTITY a "&b;"><!ENTITY b "&a;">')).toThrow(SvgSourceError);
    const bomb = ['<!ENTITY l0 "' + 'x'.repeat(1000) + '">', ...Array.from({ length: 6 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`)].join('');
    expect(() => declaredEntities(bomb)).toThrow('expands past');
  });
});

describe('the SVG namespace under any prefix', () => {
  const PREFIXED = `<svg:svg xmlns:svg="${SVG_NAMESPACE}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
    xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:x="http://ns.adobe.com/Extensibility/1.0/" viewBox="0 0 100 50">
  <sodipodi:namedview id="view"/>
  <svg:defs id="defs"><svg:linearGradient id="grad"/></svg:defs>
  <x:g id="adobe"><svg:rect id="inside-adobe" width="1" height="1"/></x:g>
  <svg:g id="g1" inkscape:label="Ground_Level"><svg:rect id="ground" width="100" height="50" fill="#32c832"/></svg:g>
  <svg:g id="g2" inkscape:label="Second_Floor"><svg:rect width="10" height="10"/></svg:g>
</svg:svg>`;

  it('draws svg:-prefixed elements; other namespaces and definitions draw nothing', () => {
    const root = parseSvg(PREFIXED);
    expect(isNonRendering(byId(root, 'g1'))).toBe(false);
    expect(isNonRendering(byId(root, 'ground'))).toBe(false);
    for (const id of ['view', 'defs', 'adobe']) expect(isNonRendering(byId(root, id)), id).toBe(true);
    // A default namespace of another language is not SVG either.
    expect(isNonRendering(parseSvg(`<svg xmlns="${SVG_NAMESPACE}"><g xmlns="http://www.w3.org/1999/xhtml"/></svg>`).children[0])).toBe(true);
  });

  it('finds and shows the floors', async () => {
    const root = parseSvg(PREFIXED);
    const match = matchLayers(root, { main: ['Ground_Level'], level2: ['Second_Floor'] });
    expect(match.groups.get('main')!.map((g) => g.attrs.get('id'))).toEqual(['g1']);
    expect(match.groups.get('level2')!.map((g) => g.attrs.get('id'))).toEqual(['g2']);
    const plan = layerSvg(PREFIXED, root, 'main', { layers: ['main', 'level2'], baseLayer: 'main', match }, { width: 200, height: 100 });
    expect(plan.found).toBe(true);
    expect(plan.body).toMatch(/<svg:g id="g2"[^>]*display:none/);
    const layer = await normalizeLayer(plan, { map: 'test', layer: 'main' });
    expect(layer.body).toMatch(/fill="#32c832"/);
  });
});

describe('floors hidden in the editor', () => {
  // Illustrator's "style elements" export hides by class; other editors save visibility.
  const HIDDEN = `<svg xmlns="${SVG_NAMESPACE}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 100 50">
  <style>.hid{display:none} .ghost{visibility:hidden}</style>
  <g id="wrapper" inkscape:label="Wrapper" class="hid">
    <g id="ground" inkscape:label="Ground_Level"><rect width="100" height="50" fill="#0000c8"/></g>
    <g id="second" inkscape:label="Second_Floor" visibility="hidden"><rect width="100" height="50" fill="#00c800"/></g>
    <g id="third" inkscape:label="Third_Floor" style="visibility:hidden"><rect width="100" height="50" fill="#c80000"/></g>
    <g id="fourth" inkscape:label="Fourth_Floor" class="ghost"><rect width="100" height="50" fill="#c8c800"/></g>
  </g>
  <g id="notes" visibility="hidden"><rect width="1" height="1"/></g>
</svg>`;
  const names = { main: ['Ground_Level'], level2: ['Second_Floor'], level3: ['Third_Floor'], level4: ['Fourth_Floor'] };
  const colours: Record<string, string> = { main: '#0000c8', level2: '#00c800', level3: '#c80000', level4: '#c8c800' };
  const root = parseSvg(HIDDEN);
  const opts = { layers: Object.keys(names), baseLayer: 'main', match: matchLayers(root, names) };
  const tagOf = (body: string, id: string) => body.match(new RegExp(`<[^>]*id="${id}"[^>]*>`))![0];

  it('shows the wrapper around the floors and each floor, whatever hid them; other groups keep their rules', () => {
    for (const [layerId, id] of [['main', 'ground'], ['level2', 'second'], ['level3', 'third'], ['level4', 'fourth']]) {
      const { body } = layerSvg(HIDDEN, root, layerId, opts, { width: 200, height: 100 });
      expect(tagOf(body, 'wrapper'), layerId).toContain('style="display:inline"');
      expect(tagOf(body, id), layerId).toContain('style="display:inline;visibility:visible"');
      expect(tagOf(body, id), layerId).not.toContain('visibility="hidden"');
      expect(tagOf(body, 'notes'), layerId).toContain('visibility="hidden"');
    }
  });

  it('draws every floor through resvg', async () => {
    for (const layerId of Object.keys(names)) {
      const layer = await normalizeLayer(layerSvg(HIDDEN, root, layerId, opts, { width: 200, height: 100 }), { map: 'test', layer: layerId });
      expect(layer.body, layerId).toContain(`fill="${colours[layerId]}"`);
      for (const other of Object.keys(names).filter((o) => o !== layerId)) expect(layer.body, `${layerId} without ${other}`).not.toContain(`fill="${colours[other]}"`);
    }
  });
});

describe('drawingText', () => {
  it('reads UTF-8 and refuses UTF-16 with the reason', () => {
    expect(drawingText(Buffer.from('<svg/>', 'utf8'))).toBe('<svg/>');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<svg/>', 'utf16le')]);
    expect(() => drawingText(utf16)).toThrow(SvgSourceError);
    expect(() => drawingText(utf16)).toThrow('the drawing must be UTF-8');
    expect(() => drawingText(Buffer.from('<svg/>', 'utf16le'))).toThrow('the drawing must be UTF-8');
  });
});

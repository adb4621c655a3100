/**
 * Just enough XML to prepare an SVG for tiling: a scanner that finds the elements and
 * their attributes (with source offsets), the layer lookup, and the rewrites that show one
 * layer alone and draw a chosen region of the map. The text between tags is never
 * touched, so whatever resvg understands in the source keeps working.
 */

export class SvgSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgSourceError';
  }
}

export interface SvgElement {
  name: string;
  /** Offset of `<` of the start tag. */
  start: number;
  /** Offset just after the start tag's `>`. */
  tagEnd: number;
  selfClosing: boolean;
  /** Offset just after the element's end (its end tag, or the `/>` of a self-closing tag). */
  end: number;
  attrs: Map<string, string>;
  children: SvgElement[];
  parent: SvgElement | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) ? String.fromCodePoint(n) : all;
    }
    return ENTITIES[code.toLowerCase()] ?? all;
  });
}

function skipTo(text: string, from: number, needle: string, what: string): number {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new SvgSourceError(`unterminated ${what} at offset ${from}`);
  return at + needle.length;
}

const NAME_END = /[\s/>]/;

/** Parses the element structure of an SVG document; throws SvgSourceError on malformed markup. */
export function parseSvg(text: string): SvgElement {
  const stack: SvgElement[] = [];
  let root: SvgElement | null = null;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) { i = skipTo(text, lt + 4, '-->', 'comment'); continue; }
    if (text.startsWith('<![CDATA[', lt)) { i = skipTo(text, lt + 9, ']]>', 'CDATA section'); continue; }
    if (text.startsWith('<?', lt)) { i = skipTo(text, lt + 2, '?>', 'processing instruction'); continue; }
    if (text.startsWith('<!', lt)) {
      // DOCTYPE, possibly with an internal subset in [ ].
      const gt = text.indexOf('>', lt);
      const bracket = text.indexOf('[', lt);
      const from = bracket >= 0 && (gt < 0 || bracket < gt) ? skipTo(text, bracket, ']', 'DOCTYPE') : lt;
      i = skipTo(text, from, '>', 'DOCTYPE');
      continue;
    }
    if (text[lt + 1] === '/') {
      const gt = skipTo(text, lt, '>', 'end tag');
      const name = text.slice(lt + 2, gt - 1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) {
        throw new SvgSourceError(`end tag </${name}> at offset ${lt} does not match ${open ? `<${open.name}>` : 'any open element'}`);
      }
      open.end = gt;
      i = gt;
      continue;
    }
    // Start tag.
    let p = lt + 1;
    while (p < text.length && !NAME_END.test(text[p])) p++;
    const name = text.slice(lt + 1, p);
    if (!name) throw new SvgSourceError(`stray '<' at offset ${lt}`);
    const attrs = new Map<string, string>();
    let selfClosing = false;
    for (;;) {
      while (p < text.length && /\s/.test(text[p])) p++;
      if (p >= text.length) throw new SvgSourceError(`unterminated <${name}> tag at offset ${lt}`);
      if (text[p] === '>') { p++; break; }
      if (text[p] === '/' && text[p + 1] === '>') { p += 2; selfClosing = true; break; }
      const eq = text.indexOf('=', p);
      if (eq < 0) throw new SvgSourceError(`bad attribute in <${name}> at offset ${p}`);
      const attrName = text.slice(p, eq).trim();
      let q = eq + 1;
      while (/\s/.test(text[q] ?? '')) q++;
      const quote = text[q];
      if (quote !== '"' && quote !== "'") throw new SvgSourceError(`unquoted attribute ${attrName} in <${name}> at offset ${p}`);
      const close = text.indexOf(quote, q + 1);
      if (close < 0) throw new SvgSourceError(`unterminated attribute ${attrName} in <${name}> at offset ${p}`);
      attrs.set(attrName, decodeEntities(text.slice(q + 1, close)));
      p = close + 1;
    }
    const parent = stack.length ? stack[stack.length - 1] : null;
    const el: SvgElement = { name, start: lt, tagEnd: p, selfClosing, end: selfClosing ? p : -1, attrs, children: [], parent };
    if (parent) parent.children.push(el);
    else if (!root) root = el;
    else throw new SvgSourceError(`more than one root element (second <${name}> at offset ${lt})`);
    if (!selfClosing) stack.push(el);
    i = p;
  }
  if (stack.length) throw new SvgSourceError(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) throw new SvgSourceError('no root element: not an SVG document');
  if (localName(root.name) !== 'svg') throw new SvgSourceError(`root element is <${root.name}>, not <svg>`);
  return root;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

/** Elements that draw nothing where they stand (definitions, metadata, editor data). */
const NON_RENDERING = new Set([
  'defs', 'style', 'script', 'title', 'desc', 'metadata', 'symbol', 'clipPath', 'mask', 'marker', 'pattern',
  'linearGradient', 'radialGradient', 'filter', 'font', 'font-face', 'cursor', 'view',
]);

export function isNonRendering(el: SvgElement): boolean {
  return el.name.includes(':') || NON_RENDERING.has(el.name);
}

/** The elements that can draw: definitions (gradients, symbols, patterns…) and their insides are left out. */
function* drawable(el: SvgElement): Generator<SvgElement> {
  yield el;
  for (const c of el.children) if (!isNonRendering(c)) yield* drawable(c);
}

const LABEL_ATTRS = ['inkscape:label', 'data-name'];

/**
 * Finds a layer among the drawable elements (a gradient or pattern of the same id is no
 * layer): first an element whose `id` is the layer id; else a group whose
 * `inkscape:label` (Inkscape) or `data-name` (Illustrator) is the layer id, exactly, then
 * ignoring case.
 */
export function findLayer(root: SvgElement, layerId: string): SvgElement | undefined {
  const all = [...drawable(root)];
  const byId = all.find((el) => el.attrs.get('id') === layerId);
  if (byId) return byId;
  const groups = all.filter((el) => localName(el.name) === 'g');
  const label = (el: SvgElement) => LABEL_ATTRS.map((a) => el.attrs.get(a)).find((v) => v !== undefined);
  return groups.find((el) => label(el) === layerId) ?? groups.find((el) => label(el)?.toLowerCase() === layerId.toLowerCase());
}

/** The source's user-space rectangle that maps onto the whole map: its viewBox, else its width/height. */
export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const UNIT_PX: Record<string, number> = { '': 1, px: 1, pt: 4 / 3, pc: 16, mm: 96 / 25.4, cm: 96 / 2.54, in: 96 };

function lengthPx(value: string | undefined): number | undefined {
  const m = value?.trim().match(/^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)$/i);
  if (!m) return undefined;
  const unit = UNIT_PX[m[2].toLowerCase()];
  const n = Number(m[1]) * (unit ?? NaN);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

export function sourceViewBox(root: SvgElement, fallback: { width: number; height: number }): ViewBox {
  const vb = root.attrs.get('viewBox');
  if (vb !== undefined) {
    const parts = vb.trim().split(/[\s,]+/).map(Number);
    if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n)) || parts[2] <= 0 || parts[3] <= 0) {
      throw new SvgSourceError(`bad viewBox "${vb}" on the root <svg>`);
    }
    return { x: parts[0], y: parts[1], width: parts[2], height: parts[3] };
  }
  return {
    x: 0,
    y: 0,
    width: lengthPx(root.attrs.get('width')) ?? fallback.width,
    height: lengthPx(root.attrs.get('height')) ?? fallback.height,
  };
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function styleWithout(style: string | undefined, property: string): string {
  if (!style) return '';
  return style
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && d.split(':')[0].trim().toLowerCase() !== property)
    .join(';');
}

/** The start tag of `el` with its display forced (inline style beats presentation attributes and style sheets). */
function tagWithDisplay(el: SvgElement, display: 'none' | 'inline'): string {
  const attrs = new Map(el.attrs);
  attrs.delete('display');
  const rest = styleWithout(attrs.get('style'), 'display');
  attrs.set('style', rest ? `${rest};display:${display}` : `display:${display}`);
  return serializeTag(el.name, attrs, el.selfClosing);
}

export function serializeTag(name: string, attrs: Map<string, string>, selfClosing: boolean): string {
  const body = [...attrs].map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
  return `<${name}${body}${selfClosing ? '/>' : '>'}`;
}

/** An SVG with one layer showing, ready to be drawn over any region by `regionSvg`. */
export interface LayerSvg {
  /** False when the source has no such layer: the layer is empty. */
  found: boolean;
  /** Text before the root <svg> tag. */
  head: string;
  /** Root attributes other than its size and viewBox. */
  rootAttrs: Map<string, string>;
  rootName: string;
  /** Everything after the root start tag, with the other layers hidden. */
  body: string;
  viewBox: ViewBox;
  hasText: boolean;
  /** The body for drawing one region (user units) only (set on normalised layers, see normalize.ts). */
  cull?: (canvas: ViewBox) => string;
}

export interface LayerPlanOptions {
  /** All layer ids of the map. */
  layers: readonly string[];
  /** The base layer (main) also draws content that lies outside every layer. */
  baseLayer: string;
}

/**
 * Rewrites the source so that only `layerId` draws: every other layer is hidden; content
 * outside all layers is kept for the base layer only; definitions stay untouched so
 * `<use>`, gradients and clip paths keep resolving wherever they are.
 */
export function layerSvg(text: string, root: SvgElement, layerId: string, opts: LayerPlanOptions, mapSize: { width: number; height: number }): LayerSvg {
  const target = findLayer(root, layerId);
  const others = new Set<SvgElement>();
  for (const id of opts.layers) {
    if (id === layerId) continue;
    const el = findLayer(root, id);
    if (el && el !== target) others.add(el);
  }
  const isBase = layerId === opts.baseLayer;
  const edits: { start: number; end: number; tag: string }[] = [];
  const holdsTarget = (el: SvgElement): boolean => target !== undefined && isAncestor(el, target);
  const holdsLayer = (el: SvgElement): boolean => [...others].some((o) => isAncestor(el, o));

  const visit = (el: SvgElement) => {
    for (const child of el.children) {
      if (isNonRendering(child)) continue;
      if (child === target) continue;
      if (others.has(child)) {
        edits.push({ start: child.start, end: child.tagEnd, tag: tagWithDisplay(child, 'none') });
      } else if (holdsTarget(child) || holdsLayer(child)) {
        if (holdsTarget(child) && isHidden(child)) {
          edits.push({ start: child.start, end: child.tagEnd, tag: tagWithDisplay(child, 'inline') });
        }
        visit(child);
      } else if (!isBase || !target) {
        edits.push({ start: child.start, end: child.tagEnd, tag: tagWithDisplay(child, 'none') });
      }
    }
  };
  visit(root);
  // Layers nested inside the target are layers of their own.
  for (const o of others) {
    if (target && isAncestor(target, o)) edits.push({ start: o.start, end: o.tagEnd, tag: tagWithDisplay(o, 'none') });
  }
  // A layer hidden in the editor (Inkscape saves display:none) is still a layer of the map.
  if (target && target !== root) edits.push({ start: target.start, end: target.tagEnd, tag: tagWithDisplay(target, 'inline') });
  edits.sort((a, b) => a.start - b.start);

  let body = '';
  let at = root.tagEnd;
  for (const e of edits) {
    body += text.slice(at, e.start) + e.tag;
    at = e.end;
  }
  body += text.slice(at);
  if (root.selfClosing) body = `</${root.name}>` + body;

  const rootAttrs = new Map(root.attrs);
  for (const a of ['width', 'height', 'viewBox', 'preserveAspectRatio', 'x', 'y']) rootAttrs.delete(a);
  return {
    found: target !== undefined,
    head: text.slice(0, root.start),
    rootAttrs,
    rootName: root.name,
    body,
    viewBox: sourceViewBox(root, mapSize),
    hasText: /<([a-z]+:)?text[\s>]/i.test(text),
  };
}

function isHidden(el: SvgElement): boolean {
  return el.attrs.get('display') === 'none' || /(^|;)\s*display\s*:\s*none/.test(el.attrs.get('style') ?? '');
}

function isAncestor(a: SvgElement, b: SvgElement): boolean {
  for (let p: SvgElement | null = b; p; p = p.parent) if (p === a) return true;
  return false;
}

/** A map-pixel region drawn into an image of outWidth × outHeight pixels (scale = pixels per map pixel). */
export interface Region {
  mapX: number;
  mapY: number;
  scale: number;
  outWidth: number;
  outHeight: number;
}

/** The layer's SVG with its root sized to the region's pixels and its viewBox on the region (source units). */
export function regionSvg(layer: LayerSvg, region: Region, mapSize: { width: number; height: number }): string {
  const kx = layer.viewBox.width / mapSize.width;
  const ky = layer.viewBox.height / mapSize.height;
  const vb = [
    layer.viewBox.x + region.mapX * kx,
    layer.viewBox.y + region.mapY * ky,
    (region.outWidth / region.scale) * kx,
    (region.outHeight / region.scale) * ky,
  ];
  const attrs = new Map(layer.rootAttrs);
  attrs.set('width', String(region.outWidth));
  attrs.set('height', String(region.outHeight));
  attrs.set('viewBox', vb.map((n) => +n.toFixed(6)).join(' '));
  attrs.set('preserveAspectRatio', 'none');
  // Leave out what lies off the region: less to draw, and resvg cannot draw a group with
  // opacity, clip, mask or filter that lies far off the canvas (see normalize.ts).
  const body = layer.cull ? layer.cull({ x: vb[0], y: vb[1], width: vb[2], height: vb[3] }) : layer.body;
  return layer.head + serializeTag(layer.rootName, attrs, false) + body;
}

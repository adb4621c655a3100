/**
 * Just enough XML to prepare an SVG for tiling: a scanner that finds the elements and
 * their attributes (with source offsets), the layer lookup, and the rewrites that show one
 * layer alone and draw a chosen region of the map. The text between tags is left as it
 * is (save references to undeclared entities, which resvg refuses), so whatever resvg
 * understands in the source keeps working.
 */

import { fitInside, type MapRect } from '../../src/domain/map-art';

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
  /** The namespace its prefix (or the default namespace) is bound to; undefined when none is declared. */
  namespace?: string;
  /** On the root: the entities its DOCTYPE declares. */
  entities?: DeclaredEntities;
}

export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An entity or character reference; names as XML allows them (Illustrator's are `ns_svg`, `ns_xlink`…). */
const REFERENCE = /&(#x[0-9a-f]+|#[0-9]+|[a-z_:][\w.:-]*);/gi;

/** Entities declared in the DOCTYPE, by name, their values already decoded. */
export type DeclaredEntities = ReadonlyMap<string, string>;

const NO_ENTITIES: DeclaredEntities = new Map();

/**
 * Replaces character references, the five predefined entities and the entities the DOCTYPE
 * declares. An unknown entity is kept as written: re-serialised, it reads as that literal
 * text (`&amp;name;`), which resvg accepts.
 */
function decodeEntities(value: string, declared: DeclaredEntities = NO_ENTITIES): string {
  return value.replace(REFERENCE, (all, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n <= 0x10ffff ? String.fromCodePoint(n) : all;
    }
    const lower = code.toLowerCase();
    return declared.get(code) ?? (Object.hasOwn(ENTITIES, lower) ? ENTITIES[lower] : all);
  });
}

/** An entity's value may hold references to others; expanding past this many characters is refused (entity bombs). */
const MAX_ENTITY_CHARS = 100_000;

/**
 * The general entities an internal DTD subset declares with a literal value. Illustrator
 * declares its namespaces so (`<!ENTITY ns_svg "http://www.w3.org/2000/svg">`) and writes
 * `xmlns="&ns_svg;"`. Parameter (`%`) and external (`SYSTEM`) entities are not read.
 */
export function declaredEntities(subset: string): DeclaredEntities {
  const raw = new Map<string, string>();
  const declaration = /<!ENTITY\s+([^\s%"'>]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g;
  for (const m of subset.replace(/<!--[\s\S]*?-->/g, '').matchAll(declaration)) {
    // The first declaration of a name binds (XML 1.0, 4.2).
    if (!raw.has(m[1])) raw.set(m[1], m[2] ?? m[3]);
  }
  const resolved = new Map<string, string>();
  const resolving = new Set<string>();
  const resolve = (name: string): string => {
    const done = resolved.get(name);
    if (done !== undefined) return done;
    if (resolving.has(name)) throw new SvgSourceError(`entity &${name}; of the DOCTYPE refers to itself`);
    resolving.add(name);
    const value = raw.get(name)!.replace(REFERENCE, (all, code: string) => (raw.has(code) ? resolve(code) : decodeEntities(all)));
    resolving.delete(name);
    if (value.length > MAX_ENTITY_CHARS) throw new SvgSourceError(`entity &${name}; of the DOCTYPE expands past ${MAX_ENTITY_CHARS} characters`);
    resolved.set(name, value);
    return value;
  };
  for (const name of raw.keys()) resolve(name);
  return resolved;
}

/** Where the DOCTYPE starting at `lt` ends, and its internal subset (the text in `[ ]`, quoted `]` and `>` skipped). */
function readDoctype(text: string, lt: number): { end: number; subset: string } {
  let quote: string | null = null;
  let subsetStart = -1;
  for (let p = lt + 2; p < text.length; p++) {
    const c = text[p];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' && subsetStart < 0) subsetStart = p + 1;
    else if (c === ']' && subsetStart >= 0) {
      const end = skipTo(text, p, '>', 'DOCTYPE');
      return { end, subset: text.slice(subsetStart, p) };
    } else if (c === '<' && subsetStart >= 0 && text.startsWith('<!--', p)) p = skipTo(text, p + 4, '-->', 'comment in the DOCTYPE') - 1;
    else if (c === '>' && subsetStart < 0) return { end: p + 1, subset: '' };
  }
  throw new SvgSourceError(`unterminated DOCTYPE at offset ${lt}`);
}

/** Whether bytes start as UTF-16 does: a byte order mark, or `<` as two bytes with a zero. */
function looksUtf16(bytes: Uint8Array): boolean {
  const [a, b] = bytes;
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) || (a === 0x3c && b === 0) || (a === 0 && b === 0x3c);
}

/**
 * The text of a drawing file. The scanner and resvg read UTF-8 only: a UTF-16 file (some
 * Windows tools save so) is refused with the reason, not as garbled markup further on.
 */
export function drawingText(bytes: Buffer): string {
  if (looksUtf16(bytes)) throw new SvgSourceError('the drawing must be UTF-8, and this file is UTF-16: save it again as UTF-8');
  return bytes.toString('utf8');
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
  let entities: DeclaredEntities = NO_ENTITIES;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) { i = skipTo(text, lt + 4, '-->', 'comment'); continue; }
    if (text.startsWith('<![CDATA[', lt)) { i = skipTo(text, lt + 9, ']]>', 'CDATA section'); continue; }
    if (text.startsWith('<?', lt)) { i = skipTo(text, lt + 2, '?>', 'processing instruction'); continue; }
    if (text.startsWith('<!', lt)) {
      // DOCTYPE, possibly with an internal subset in [ ] that declares entities.
      const doctype = readDoctype(text, lt);
      if (!root) entities = declaredEntities(doctype.subset);
      i = doctype.end;
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
      attrs.set(attrName, decodeEntities(text.slice(q + 1, close), entities));
      p = close + 1;
    }
    const parent = stack.length ? stack[stack.length - 1] : null;
    const el: SvgElement = { name, start: lt, tagEnd: p, selfClosing, end: selfClosing ? p : -1, attrs, children: [], parent };
    el.namespace = namespaceOf(el);
    if (parent) parent.children.push(el);
    else if (!root) root = el;
    else throw new SvgSourceError(`more than one root element (second <${name}> at offset ${lt})`);
    if (!selfClosing) stack.push(el);
    i = p;
  }
  if (stack.length) throw new SvgSourceError(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) throw new SvgSourceError('no root element: not an SVG document');
  if (localName(root.name) !== 'svg') throw new SvgSourceError(`root element is <${root.name}>, not <svg>`);
  root.entities = entities;
  return root;
}

/** A reference to a named entity, or a part of the markup where `&` means nothing (comments, CDATA, PIs). */
const NAMED_REFERENCE_OR_VERBATIM = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|&([a-z_:][\w.:-]*);/gi;

/**
 * Source markup with each reference to an entity neither predefined nor declared in the
 * DOCTYPE (`&nbsp;` from an HTML habit) written as the literal text it shows (`&amp;nbsp;`):
 * resvg refuses the whole document on one such reference. Declared ones are left to resvg,
 * which reads the DOCTYPE kept in the layer's head.
 */
export function literalUnknownEntities(markup: string, declared: DeclaredEntities = NO_ENTITIES): string {
  return markup.replace(NAMED_REFERENCE_OR_VERBATIM, (all, name: string | undefined) =>
    name === undefined || declared.has(name) || Object.hasOwn(ENTITIES, name) ? all : `&amp;${name};`,
  );
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

/** The namespace an element's prefix is bound to by the xmlns declarations on it and its ancestors. */
function namespaceOf(el: SvgElement): string | undefined {
  const colon = el.name.indexOf(':');
  const declaration = colon >= 0 ? `xmlns:${el.name.slice(0, colon)}` : 'xmlns';
  for (let p: SvgElement | null = el; p; p = p.parent) {
    const ns = p.attrs.get(declaration);
    if (ns !== undefined) return ns;
  }
  return undefined;
}

/**
 * Whether an element is SVG's: bound to the SVG namespace whatever its prefix (`<svg:g>`
 * as well as `<g>`). An unprefixed element where no default namespace is declared counts
 * as SVG (hand-written files often leave xmlns out); a prefix bound to nothing does not.
 */
export function isSvgElement(el: SvgElement): boolean {
  if (el.namespace === SVG_NAMESPACE) return true;
  return el.namespace === undefined && !el.name.includes(':');
}

/** Definitions, metadata and other namespaces' elements (inkscape:, sodipodi:, Illustrator's i:…). */
export function isNonRendering(el: SvgElement): boolean {
  return !isSvgElement(el) || NON_RENDERING.has(localName(el.name));
}

/** The elements that can draw: definitions (gradients, symbols, patterns…) and their insides are left out. */
function* drawable(el: SvgElement): Generator<SvgElement> {
  yield el;
  for (const c of el.children) if (!isNonRendering(c)) yield* drawable(c);
}

const LABEL_ATTRS = ['inkscape:label', 'data-name'];

/** A group's label: `inkscape:label` (Inkscape) or `data-name` (Illustrator). */
function labelOf(el: SvgElement): string | undefined {
  return LABEL_ATTRS.map((a) => el.attrs.get(a)).find((v) => v !== undefined);
}

/** How a group is named in messages: its label, else its id. */
export function groupName(el: SvgElement): string | undefined {
  return labelOf(el) ?? el.attrs.get('id');
}

/**
 * Finds the element a name stands for among the drawable elements (a gradient or pattern
 * of the same id is no layer), in this order: an element whose `id` is the name; a group
 * whose `inkscape:label` or `data-name` is the name; then the same two ignoring case.
 */
export function findGroup(root: SvgElement, name: string, all: readonly SvgElement[] = [...drawable(root)]): SvgElement | undefined {
  const groups = all.filter((el) => localName(el.name) === 'g');
  const lower = name.toLowerCase();
  return (
    all.find((el) => el.attrs.get('id') === name) ??
    groups.find((el) => labelOf(el) === name) ??
    all.find((el) => el.attrs.get('id')?.toLowerCase() === lower) ??
    groups.find((el) => labelOf(el)?.toLowerCase() === lower)
  );
}

/** Every group named `name` (id or label, ignoring case): for groups left out. */
function findAllGroups(all: readonly SvgElement[], name: string): SvgElement[] {
  const lower = name.toLowerCase();
  return all.filter((el) => el.attrs.get('id')?.toLowerCase() === lower || (localName(el.name) === 'g' && labelOf(el)?.toLowerCase() === lower));
}

/** The layer `layerId` drawn by the element of that name (see findGroup). */
export function findLayer(root: SvgElement, layerId: string): SvgElement | undefined {
  return findGroup(root, layerId);
}

/** Which groups of a drawing draw which layer (see matchLayers). */
export interface LayerMatch {
  /** Layer id → the elements that draw it (empty: the layer is missing). */
  groups: Map<string, SvgElement[]>;
  /** Layer id → the names (as listed) that found a group. */
  foundBy: Map<string, string[]>;
  /** Groups left out of every layer (map.json `exclude`). */
  excluded: SvgElement[];
  /** Named groups beside the layers that match no layer (drawn with the base layer). */
  unmatched: string[];
  /** Names in `exclude` that find no group at all (a typo, or a group since renamed). */
  excludeNotFound: string[];
  /** Names in `exclude` that find a floor: a layer's group is never left out, so it is drawn anyway. */
  excludeFloors: { name: string; layer: string }[];
  /**
   * Names in `exclude` that find a group holding floors (a wrapper): its other content is left
   * out, but the floors inside it are drawn; `layers` in the map's layer order.
   */
  excludeHoldsFloors: { name: string; layers: string[] }[];
  /** Some layer was found under a name other than raidmap's own layer id. */
  communityNamed: boolean;
}

/**
 * Matches the groups of a drawing to the layers of a map: each layer takes the groups its
 * names find (findGroup), in the map's layer order; a group is given to one layer only.
 * Named groups beside the layers (children of the root or of a group holding layers) that
 * are no layer, hold none and are not excluded are listed as `unmatched`. A floor named in
 * `exclude` stays its layer's (listed in `excludeFloors`), and so do floors inside a group
 * named there (listed in `excludeHoldsFloors`); a name in `exclude` that finds no group is
 * listed in `excludeNotFound`.
 */
export function matchLayers(root: SvgElement, names: Record<string, readonly string[]>, exclude: readonly string[] = []): LayerMatch {
  const all = [...drawable(root)];
  const taken = new Set<SvgElement>();
  const groups = new Map<string, SvgElement[]>();
  const foundBy = new Map<string, string[]>();
  let communityNamed = false;
  for (const [layerId, list] of Object.entries(names)) {
    const els: SvgElement[] = [];
    const by: string[] = [];
    for (const name of list) {
      const el = findGroup(root, name, all.filter((e) => !taken.has(e)));
      if (!el) continue;
      taken.add(el);
      els.push(el);
      by.push(name);
      if (name.toLowerCase() !== layerId.toLowerCase()) communityNamed = true;
    }
    groups.set(layerId, els);
    foundBy.set(layerId, by);
  }
  const named = [...new Set(exclude.flatMap((name) => findAllGroups(all, name)))].filter((el) => !taken.has(el));
  const excludeNames = exclude.filter((name, i) => exclude.findIndex((o) => o.toLowerCase() === name.toLowerCase()) === i);
  const excludeNotFound = excludeNames.filter((name) => findAllGroups(all, name).length === 0);
  const layerOf = (el: SvgElement) => [...groups].find(([, els]) => els.includes(el))![0];
  const excludeFloors = excludeNames.flatMap((name) => findAllGroups(all, name).filter((el) => taken.has(el)).map((el) => ({ name, layer: layerOf(el) })));
  const excludeHoldsFloors = excludeNames.flatMap((name) => {
    const holders = findAllGroups(all, name).filter((el) => !taken.has(el));
    const layers = [...groups].filter(([, els]) => els.some((floor) => holders.some((h) => isAncestor(h, floor)))).map(([id]) => id);
    return layers.length ? [{ name, layers }] : [];
  });
  // An element inside a group left out goes with it.
  const excluded = named.filter((el) => !named.some((o) => o !== el && isAncestor(o, el)));
  const layerEls = [...taken];
  const known = new Set([...layerEls, ...excluded]);
  const unmatched: string[] = [];
  const look = (el: SvgElement) => {
    for (const child of el.children) {
      if (isNonRendering(child) || localName(child.name) !== 'g' || known.has(child)) continue;
      if (layerEls.some((l) => isAncestor(child, l))) look(child);
      else {
        const name = groupName(child);
        if (name !== undefined && !unmatched.includes(name)) unmatched.push(name);
      }
    }
  };
  if (!known.has(root)) look(root);
  return { groups, foundBy, excluded, unmatched, excludeNotFound, excludeFloors, excludeHoldsFloors, communityNamed };
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

/**
 * The warning for a drawing whose box falls back on the map's size (no viewBox, and a
 * width or height that is missing, `100%` or in another relative unit): it is then placed
 * as if drawn at the map's size, which is seldom what its author meant. Undefined when the
 * box comes from the drawing itself.
 */
export function sizeFallbackWarning(root: SvgElement, mapSize: { width: number; height: number }): string | undefined {
  if (root.attrs.get('viewBox') !== undefined) return undefined;
  const unusable = (['width', 'height'] as const).filter((a) => lengthPx(root.attrs.get(a)) === undefined);
  if (!unusable.length) return undefined;
  const given = unusable.filter((a) => root.attrs.has(a)).map((a) => `${a}="${root.attrs.get(a)}"`);
  const said = given.length ? ` (${given.join(', ')})` : '';
  if (unusable.length === 2) {
    return `the drawing has no viewBox and no absolute width/height${said}: taken as the map's size ${mapSize.width}×${mapSize.height}; give it a viewBox`;
  }
  const box = sourceViewBox(root, mapSize);
  const axis = unusable[0];
  return `the drawing has no viewBox and no absolute ${axis}${said}: its ${axis} taken as the map's (${mapSize[axis]}), a box of ${box.width}×${box.height}; give it a viewBox`;
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

/**
 * The start tag of `el` with style properties forced: an inline style beats presentation
 * attributes and style sheet rules (class, id or element selectors), so a `<style>` in the
 * drawing cannot undo it.
 */
function tagWithStyle(el: SvgElement, forced: Readonly<Record<string, string>>): string {
  const attrs = new Map(el.attrs);
  let rest = attrs.get('style');
  for (const property of Object.keys(forced)) {
    attrs.delete(property);
    rest = styleWithout(rest, property);
  }
  const added = Object.entries(forced).map(([property, value]) => `${property}:${value}`).join(';');
  attrs.set('style', rest ? `${rest};${added}` : added);
  return serializeTag(el.name, attrs, el.selfClosing);
}

const HIDDEN = { display: 'none' } as const;
/** A group around a floor: shown whatever hid it (display only: visibility is inherited, and the floor sets its own). */
const SHOWN_AROUND_FLOOR = { display: 'inline' } as const;
/** A floor: drawn even when hidden in the editor, by display or visibility, in any way. */
const SHOWN_FLOOR = { display: 'inline', visibility: 'visible' } as const;

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
  /** Where the viewBox lands on the map, in map pixels (aspect ratio kept); default: fitted into the whole map. */
  place?: MapRect;
  /** The body for drawing one region (user units) only (set on normalised layers, see normalize.ts). */
  cull?: (canvas: ViewBox) => string;
}

export interface LayerPlanOptions {
  /** All layer ids of the map. */
  layers: readonly string[];
  /** The base layer (main) also draws content that lies outside every layer. */
  baseLayer: string;
  /** The groups of each layer and those left out (matchLayers); default: each layer by its id. */
  match?: LayerMatch;
  /** Where the viewBox lands on the map (map pixels); default: fitted into the whole map. */
  place?: MapRect;
}

/**
 * Rewrites the source so that only `layerId` draws: every other layer is hidden; content
 * outside all layers is kept for the base layer only; definitions stay untouched so
 * `<use>`, gradients and clip paths keep resolving wherever they are.
 */
export function layerSvg(text: string, root: SvgElement, layerId: string, opts: LayerPlanOptions, mapSize: { width: number; height: number }): LayerSvg {
  const match = opts.match ?? matchLayers(root, Object.fromEntries(opts.layers.map((id) => [id, [id]])));
  const targets = new Set(match.groups.get(layerId) ?? []);
  // Groups of the other layers, and groups left out: hidden.
  const others = new Set<SvgElement>(match.excluded);
  for (const id of opts.layers) {
    if (id === layerId) continue;
    for (const el of match.groups.get(id) ?? []) if (!targets.has(el)) others.add(el);
  }
  const isBase = layerId === opts.baseLayer;
  const edits: { start: number; end: number; tag: string }[] = [];
  const holdsTarget = (el: SvgElement): boolean => [...targets].some((t) => isAncestor(el, t));
  const holdsLayer = (el: SvgElement): boolean => [...others].some((o) => isAncestor(el, o));
  const hide = (el: SvgElement) => edits.push({ start: el.start, end: el.tagEnd, tag: tagWithStyle(el, HIDDEN) });

  // `insideOther`: within another layer's group that holds a target (its own content is hidden).
  const visit = (el: SvgElement, insideOther: boolean) => {
    for (const child of el.children) {
      if (isNonRendering(child)) continue;
      if (targets.has(child)) continue;
      if (holdsTarget(child)) {
        // Always forced, not only when `display` says hidden: a class rule of the drawing's
        // <style> (Illustrator's "style elements" export) hides a wrapper just as well.
        edits.push({ start: child.start, end: child.tagEnd, tag: tagWithStyle(child, SHOWN_AROUND_FLOOR) });
        visit(child, insideOther || others.has(child));
      } else if (others.has(child) || insideOther) {
        hide(child);
      } else if (holdsLayer(child)) {
        visit(child, false);
      } else if (!isBase || targets.size === 0) {
        hide(child);
      }
    }
  };
  visit(root, false);
  // Layers (and groups left out) nested inside a target are not part of it.
  for (const o of others) {
    if ([...targets].some((t) => t !== o && isAncestor(t, o))) hide(o);
  }
  // A layer hidden in the editor (Inkscape saves display:none; others visibility:hidden or a
  // class) is still a layer of the map.
  for (const t of targets) {
    if (t !== root) edits.push({ start: t.start, end: t.tagEnd, tag: tagWithStyle(t, SHOWN_FLOOR) });
  }
  edits.sort((a, b) => a.start - b.start);
  // A target inside a target was edited twice: keep one edit per element.
  const unique = edits.filter((e, i) => i === 0 || e.start !== edits[i - 1].start);

  const verbatim = (from: number, to?: number) => literalUnknownEntities(text.slice(from, to), root.entities);
  let body = '';
  let at = root.tagEnd;
  for (const e of unique) {
    body += verbatim(at, e.start) + e.tag;
    at = e.end;
  }
  body += verbatim(at);
  if (root.selfClosing) body = `</${root.name}>` + body;

  const rootAttrs = new Map(root.attrs);
  for (const a of ['width', 'height', 'viewBox', 'preserveAspectRatio', 'x', 'y']) rootAttrs.delete(a);
  const viewBox = sourceViewBox(root, mapSize);
  return {
    found: targets.size > 0,
    head: text.slice(0, root.start),
    rootAttrs,
    rootName: root.name,
    body,
    viewBox,
    hasText: /<([a-z]+:)?text[\s>]/i.test(text),
    place: opts.place ?? fitInside(viewBox, { x: 0, y: 0, width: mapSize.width, height: mapSize.height }),
  };
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

/** Where a layer's viewBox lands on the map (map pixels). */
export function placeOf(layer: LayerSvg, mapSize: { width: number; height: number }): MapRect {
  return layer.place ?? fitInside(layer.viewBox, { x: 0, y: 0, width: mapSize.width, height: mapSize.height });
}

/** toFixed's limit. */
const MAX_DECIMALS = 100;

/**
 * Decimals for a region's viewBox that keep it to a thousandth of an output pixel
 * (`unitsPerPixel`: drawing units per output pixel), and never fewer than the 6 it always
 * had: a drawing some 1e-5 units wide would otherwise get a deep tile's viewBox rounded to
 * `… 0 0`. Drawings of ordinary size keep 6, so their regions are written as before.
 */
export function viewBoxDecimals(unitsPerPixel: number): number {
  const needed = Math.ceil(-Math.log10(unitsPerPixel / 1000));
  return Number.isFinite(needed) ? Math.min(MAX_DECIMALS, Math.max(6, needed)) : 6;
}

/**
 * The layer's SVG with its root sized to the region's pixels and its viewBox on the region
 * (source units, one scale for both axes: the drawing sits at `layer.place`, never stretched).
 * What lies outside the drawing's box is cleared after rendering (render.ts).
 */
export function regionSvg(layer: LayerSvg, region: Region, mapSize: { width: number; height: number }): string {
  const src = layer.viewBox;
  const place = placeOf(layer, mapSize);
  const kx = src.width / place.width;
  const ky = src.height / place.height;
  const vb = [
    src.x + (region.mapX - place.x) * kx,
    src.y + (region.mapY - place.y) * ky,
    (region.outWidth / region.scale) * kx,
    (region.outHeight / region.scale) * ky,
  ];
  const attrs = new Map(layer.rootAttrs);
  attrs.set('width', String(region.outWidth));
  attrs.set('height', String(region.outHeight));
  const decimals = viewBoxDecimals(Math.min(kx, ky) / region.scale);
  attrs.set('viewBox', vb.map((n) => +n.toFixed(decimals)).join(' '));
  attrs.set('preserveAspectRatio', 'none');
  // Leave out what lies off the region: less to draw, and resvg cannot draw a group with
  // opacity, clip, mask or filter that lies far off the canvas (see normalize.ts).
  const body = layer.cull ? layer.cull({ x: vb[0], y: vb[1], width: vb[2], height: vb[3] }) : layer.body;
  return layer.head + serializeTag(layer.rootName, attrs, false) + body;
}

/**
 * The output pixels of a region that the drawing covers (whole pixels, widened), or
 * undefined when it covers all of them.
 */
export function drawingPixels(layer: LayerSvg, region: Region, mapSize: { width: number; height: number }): { left: number; top: number; right: number; bottom: number } | undefined {
  const p = placeOf(layer, mapSize);
  const left = Math.max(0, Math.floor((p.x - region.mapX) * region.scale + 1e-6));
  const top = Math.max(0, Math.floor((p.y - region.mapY) * region.scale + 1e-6));
  const right = Math.min(region.outWidth, Math.ceil((p.x + p.width - region.mapX) * region.scale - 1e-6));
  const bottom = Math.min(region.outHeight, Math.ceil((p.y + p.height - region.mapY) * region.scale - 1e-6));
  if (left <= 0 && top <= 0 && right >= region.outWidth && bottom >= region.outHeight) return undefined;
  return { left, top, right: Math.max(left, right), bottom: Math.max(top, bottom) };
}

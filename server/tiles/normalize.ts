/**
 * Normalising a layer once, culling it per region.
 *
 * resvg's own writer (`Resvg#toString`) turns a layer into plain SVG: shapes and text
 * become absolute paths, `<use>` and symbols are resolved, hidden elements dropped,
 * transforms written as matrices. From that we know each element's bounding box, so a
 * region render gets only what lies near it. This matters twice: deep tiles parse and draw
 * a fraction of the map, and resvg (2.6) aborts the process when a group with opacity,
 * clip, mask or filter lies more than about two canvases off the canvas — culled
 * elements never reach it.
 */
import { FONT_OPTIONS } from './fonts';
import { disposeRenderPool, renderPool } from './render-pool';
import { isNonRendering, parseSvg, serializeTag, type LayerSvg, type SvgElement, type ViewBox } from './svg-doc';

/** Axis-aligned box in the root's user units. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;

/** Parses an SVG transform list; undefined when it holds something unknown. */
export function parseTransform(text: string | undefined): Matrix | undefined {
  if (!text) return IDENTITY;
  let m = IDENTITY;
  const re = /(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g;
  let consumed = '';
  for (let hit = re.exec(text); hit; hit = re.exec(text)) {
    consumed += hit[0];
    const a = (hit[2].match(NUMBER) ?? []).map(Number);
    let t: Matrix;
    switch (hit[1]) {
      case 'matrix': if (a.length !== 6) return undefined; t = a as Matrix; break;
      case 'translate': t = [1, 0, 0, 1, a[0] ?? 0, a[1] ?? 0]; break;
      case 'scale': t = [a[0] ?? 1, 0, 0, a[1] ?? a[0] ?? 1, 0, 0]; break;
      case 'rotate': {
        const r = ((a[0] ?? 0) * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
        const [cx, cy] = [a[1] ?? 0, a[2] ?? 0];
        t = multiply(multiply([1, 0, 0, 1, cx, cy], [c, s, -s, c, 0, 0]), [1, 0, 0, 1, -cx, -cy]);
        break;
      }
      case 'skewX': t = [1, 0, Math.tan(((a[0] ?? 0) * Math.PI) / 180), 1, 0, 0]; break;
      default: t = [1, Math.tan(((a[0] ?? 0) * Math.PI) / 180), 0, 1, 0, 0];
    }
    m = multiply(m, t);
  }
  return consumed.replace(/\s|,/g, '').length === text.replace(/\s|,/g, '').length ? m : undefined;
}

/** Parameters in (0, 1) where a quadratic a·t² + b·t + c is zero. */
function roots01(a: number, b: number, c: number): number[] {
  const out: number[] = [];
  if (Math.abs(a) < 1e-12) {
    if (Math.abs(b) > 1e-12) out.push(-c / b);
  } else {
    const disc = b * b - 4 * a * c;
    if (disc >= 0) {
      const q = Math.sqrt(disc);
      out.push((-b + q) / (2 * a), (-b - q) / (2 * a));
    }
  }
  return out.filter((t) => t > 0 && t < 1);
}

/** Extremes of one axis of a cubic Bézier (p0 … p3) between its ends. */
function cubicExtremes(p0: number, p1: number, p2: number, p3: number): number[] {
  const ts = roots01(-p0 + 3 * p1 - 3 * p2 + p3, 2 * (p0 - 2 * p1 + p2), p1 - p0);
  return ts.map((t) => (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3 * p3);
}

function quadExtremes(p0: number, p1: number, p2: number): number[] {
  const den = p0 - 2 * p1 + p2;
  if (Math.abs(den) < 1e-12) return [];
  const t = (p0 - p1) / den;
  return t > 0 && t < 1 ? [(1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t * t * p2] : [];
}

/**
 * The box of a path's geometry: curves by their true extremes, not their control points,
 * so the box is never larger than the drawing (which matters for resvg, see culledBody).
 * Undefined for relative or unknown commands.
 */
export function pathBox(d: string): Box | undefined {
  const box: Box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const addX = (v: number) => { box.minX = Math.min(box.minX, v); box.maxX = Math.max(box.maxX, v); };
  const addY = (v: number) => { box.minY = Math.min(box.minY, v); box.maxY = Math.max(box.maxY, v); };
  const add = (px: number, py: number) => { addX(px); addY(py); };
  let x = 0, y = 0, startX = 0, startY = 0;
  for (const seg of d.match(/[a-zA-Z][^a-zA-Z]*/g) ?? []) {
    const cmd = seg[0];
    const n = (seg.slice(1).match(NUMBER) ?? []).map(Number);
    switch (cmd) {
      case 'M':
        for (let i = 0; i + 1 < n.length; i += 2) add((x = n[i]), (y = n[i + 1]));
        if (n.length >= 2) { startX = n[0]; startY = n[1]; }
        break;
      case 'L':
        for (let i = 0; i + 1 < n.length; i += 2) add((x = n[i]), (y = n[i + 1]));
        break;
      case 'C':
        for (let i = 0; i + 5 < n.length; i += 6) {
          cubicExtremes(x, n[i], n[i + 2], n[i + 4]).forEach(addX);
          cubicExtremes(y, n[i + 1], n[i + 3], n[i + 5]).forEach(addY);
          add((x = n[i + 4]), (y = n[i + 5]));
        }
        break;
      case 'Q':
        for (let i = 0; i + 3 < n.length; i += 4) {
          quadExtremes(x, n[i], n[i + 2]).forEach(addX);
          quadExtremes(y, n[i + 1], n[i + 3]).forEach(addY);
          add((x = n[i + 2]), (y = n[i + 3]));
        }
        break;
      case 'S': case 'T':
        // Smooth curves: their control points bound them (rare in resvg's output).
        for (let i = 0; i + 1 < n.length; i += 2) add((x = n[i]), (y = n[i + 1]));
        break;
      case 'H': for (const v of n) add((x = v), y); break;
      case 'V': for (const v of n) add(x, (y = v)); break;
      case 'A':
        for (let i = 0; i + 6 < n.length; i += 7) {
          const r = Math.max(Math.abs(n[i]), Math.abs(n[i + 1]));
          add(x - r, y - r); add(x + r, y + r);
          x = n[i + 5]; y = n[i + 6];
          add(x - r, y - r); add(x + r, y + r);
        }
        break;
      case 'Z': case 'z': x = startX; y = startY; break;
      default: return undefined;
    }
  }
  return Number.isFinite(box.minX) ? box : undefined;
}

function transformBox(b: Box, m: Matrix): Box {
  const pts = [[b.minX, b.minY], [b.maxX, b.minY], [b.minX, b.maxY], [b.maxX, b.maxY]].map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]);
  return {
    minX: Math.min(...pts.map((p) => p[0])), maxX: Math.max(...pts.map((p) => p[0])),
    minY: Math.min(...pts.map((p) => p[1])), maxY: Math.max(...pts.map((p) => p[1])),
  };
}

const grow = (b: Box, d: number): Box => ({ minX: b.minX - d, minY: b.minY - d, maxX: b.maxX + d, maxY: b.maxY + d });

function union(a: Box | null, b: Box): Box {
  return a ? { minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) } : b;
}

function styleValue(el: SvgElement, name: string): string | undefined {
  const m = el.attrs.get('style')?.match(new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`));
  return m ? m[1].trim() : el.attrs.get(name);
}

/**
 * Bounding boxes (root user units) of the drawable elements: null for an element that
 * draws nothing, undefined where it cannot be known (those are never culled).
 */
export function elementBoxes(root: SvgElement, ctms?: Map<SvgElement, Matrix>): Map<SvgElement, Box | null | undefined> {
  const boxes = new Map<SvgElement, Box | null | undefined>();
  const visit = (el: SvgElement, parentCtm: Matrix): Box | null | undefined => {
    const local = parseTransform(el.attrs.get('transform'));
    let box: Box | null | undefined;
    if (!local) box = undefined;
    else {
      const ctm = multiply(parentCtm, local);
      ctms?.set(el, ctm);
      const scale = Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])) || 1;
      const name = el.name;
      if (name === 'g' || name === 'a' || name === 'switch') {
        box = null;
        for (const c of el.children) {
          if (isNonRendering(c)) continue;
          const cb = visit(c, ctm);
          if (cb === undefined) box = undefined;
          else if (cb && box !== undefined) box = union(box, cb);
        }
      } else if (name === 'path') {
        const local = pathBox(el.attrs.get('d') ?? '');
        const stroke = styleValue(el, 'stroke');
        const width = stroke && stroke !== 'none' ? Number(styleValue(el, 'stroke-width') ?? 1) : 0;
        // Half the stroke; with miter joins (the default), enough for right-angle corners
        // (√2/2 of the width). Sharper miters reach further: boxes err small, not large.
        const join = styleValue(el, 'stroke-linejoin') ?? 'miter';
        const reach = (Number.isFinite(width) ? width : 1) * (join === 'round' || join === 'bevel' ? 0.5 : 0.75);
        box = local ? grow(transformBox(local, ctm), reach * scale + 0.5 * scale) : undefined;
      } else if (name === 'image') {
        const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(el.attrs.get(a) ?? 0));
        box = [x, y, w, h].every(Number.isFinite) ? transformBox({ minX: x, minY: y, maxX: x + w, maxY: y + h }, ctm) : undefined;
      } else {
        box = undefined;
      }
      // A filter draws in its region, by default the box widened by 10 % on each side (a
      // larger region set in the SVG is not read: the box errs small, as everywhere here).
      if (box && styleValue(el, 'filter') && styleValue(el, 'filter') !== 'none') {
        const dx = (box.maxX - box.minX) * 0.1, dy = (box.maxY - box.minY) * 0.1;
        box = { minX: box.minX - dx, minY: box.minY - dy, maxX: box.maxX + dx, maxY: box.maxY + dy };
      }
    }
    boxes.set(el, box);
    return box;
  };
  for (const c of root.children) if (!isNonRendering(c)) visit(c, IDENTITY);
  return boxes;
}

const intersects = (b: Box, r: ViewBox) => b.minX < r.x + r.width && b.maxX > r.x && b.minY < r.y + r.height && b.maxY > r.y;
const inside = (b: Box, r: ViewBox) => b.minX >= r.x && b.maxX <= r.x + r.width && b.minY >= r.y && b.maxY <= r.y + r.height;

function invert(m: Matrix): Matrix | undefined {
  const det = m[0] * m[3] - m[1] * m[2];
  if (!det || !Number.isFinite(det)) return undefined;
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

const refId = (value: string | undefined) => value?.match(/url\(\s*['"]?#([^'")\s]+)/)?.[1];

/**
 * Whether a group draws into a layer of its own in resvg (the case that can abort the
 * process), and whether a transparent anchor may be added to it without changing what it
 * draws: not when a clip path or mask is sized by the group's bounding box, nor for
 * filters (their region follows the bounding box).
 */
function layerKind(el: SvgElement, defs: Map<string, SvgElement>): 'none' | 'anchor' | 'cull-only' {
  const opacity = styleValue(el, 'opacity');
  const clip = refId(styleValue(el, 'clip-path'));
  const mask = refId(styleValue(el, 'mask'));
  const filter = styleValue(el, 'filter');
  const isLayer = (opacity !== undefined && Number(opacity) !== 1) || clip || mask || (filter && filter !== 'none');
  if (!isLayer) return 'none';
  if (filter && filter !== 'none') return 'cull-only';
  if (clip && defs.get(clip)?.attrs.get('clipPathUnits') === 'objectBoundingBox') return 'cull-only';
  if (mask && defs.get(mask)?.attrs.get('maskContentUnits') === 'objectBoundingBox') return 'cull-only';
  return 'anchor';
}

export interface CullIndex {
  text: string;
  root: SvgElement;
  boxes: Map<SvgElement, Box | null | undefined>;
  ctms: Map<SvgElement, Matrix>;
  defs: Map<string, SvgElement>;
}

export function cullIndex(text: string): CullIndex {
  const root = parseSvg(text);
  const ctms = new Map<SvgElement, Matrix>();
  const boxes = elementBoxes(root, ctms);
  const defs = new Map<string, SvgElement>();
  const collect = (el: SvgElement) => {
    const id = el.attrs.get('id');
    if (id) defs.set(id, el);
    el.children.forEach(collect);
  };
  root.children.filter(isNonRendering).forEach(collect);
  return { text, root, boxes, ctms, defs };
}

/**
 * The root's content for drawing `canvas` (root user units): elements whose box misses
 * it are left out. Boxes err small (exact curve extremes, half the stroke), and resvg's
 * own boxes are axis-aligned the same way, so a kept group is on resvg's canvas too. As a
 * second guard, a layer group reaching outside the canvas gets a transparent anchor inside
 * it, which pins resvg's box to the canvas whatever the estimate.
 */
export function culledBody(index: CullIndex, canvas: ViewBox): string {
  const { text, root, boxes, ctms, defs } = index;
  // A hair wider than the canvas, for anti-aliased edges.
  const keep = { x: canvas.x - canvas.width * 0.01, y: canvas.y - canvas.height * 0.01, width: canvas.width * 1.02, height: canvas.height * 1.02 };
  const cx = canvas.x + canvas.width / 2, cy = canvas.y + canvas.height / 2;
  const out: string[] = [];
  const anchor = (el: SvgElement): string => {
    const inv = invert(ctms.get(el) ?? IDENTITY);
    if (!inv) return '';
    const x = inv[0] * cx + inv[2] * cy + inv[4], y = inv[1] * cx + inv[3] * cy + inv[5];
    const d = Math.max(Math.abs(inv[0]), Math.abs(inv[3]), 1e-6) * 1e-3;
    return `<path d="M${x} ${y}h${d}v${d}h${-d}Z" fill="#000" fill-opacity="0"/>`;
  };
  const emit = (el: SvgElement) => {
    const box = boxes.get(el);
    if (box === null) return;
    if (box !== undefined && !intersects(box, keep)) return;
    if (el.name !== 'g' || el.selfClosing) { out.push(text.slice(el.start, el.end)); return; }
    out.push(text.slice(el.start, el.tagEnd));
    if (layerKind(el, defs) === 'anchor' && !(box && inside(box, keep))) out.push(anchor(el));
    for (const c of el.children) {
      if (isNonRendering(c)) out.push(text.slice(c.start, c.end));
      else emit(c);
    }
    out.push(`</${el.name}>`);
  };
  for (const c of root.children) {
    if (isNonRendering(c)) out.push(text.slice(c.start, c.end));
    else emit(c);
  }
  return out.join('') + `</${root.name}>`;
}

// ---------------------------------------------------------------- resvg, in a child process

/**
 * resvg's normalised text of an SVG document, made in a child process of the render pool
 * (render-pool.ts): a Rust panic in resvg aborts whatever process it runs in, so it must not
 * be the server's. A crash rejects with "resvg crashed while preparing <label> …"; a document
 * resvg refuses, with "resvg could not read <label>: …".
 */
export function normalizeText(doc: string, withFonts: boolean, label = 'the SVG'): Promise<string> {
  return renderPool().normalize(doc, withFonts ? FONT_OPTIONS : { loadSystemFonts: false }, label);
}

/**
 * Stops the resvg child processes (tests, shutdown); the next normalisation or render starts
 * new ones. The same as `disposeRenderPool()`: normalising and rendering share the pool.
 */
export function disposeNormalizer(): Promise<void> {
  return disposeRenderPool();
}

/** Names a layer in errors: `layer "main" of map "factory"`. */
export interface LayerName {
  map: string;
  layer: string;
}

/**
 * The layer as resvg's normalised SVG, with a culling index. `name` names it in errors
 * ("resvg crashed while preparing layer "main" of map "factory" …").
 */
export async function normalizeLayer(layer: LayerSvg, name?: LayerName): Promise<LayerSvg> {
  if (!layer.found) return layer;
  const vb = layer.viewBox;
  const attrs = new Map(layer.rootAttrs);
  attrs.set('width', String(vb.width));
  attrs.set('height', String(vb.height));
  attrs.set('viewBox', `${vb.x} ${vb.y} ${vb.width} ${vb.height}`);
  const doc = layer.head + serializeTag(layer.rootName, attrs, false) + layer.body;
  const text = await normalizeText(doc, layer.hasText, name ? `layer "${name.layer}" of map "${name.map}"` : 'a layer');
  const index = cullIndex(text);
  const root = index.root;
  const rootAttrs = new Map(root.attrs);
  for (const a of ['width', 'height', 'viewBox', 'preserveAspectRatio']) rootAttrs.delete(a);
  return {
    found: true,
    head: '',
    rootAttrs,
    rootName: root.name,
    body: text.slice(root.tagEnd),
    viewBox: vb,
    // Text is paths now: no fonts needed to draw it.
    hasText: false,
    place: layer.place,
    cull: (canvas) => culledBody(index, canvas),
  };
}

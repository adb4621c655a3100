/**
 * The admin's drawn shapes (src/domain/shapes.ts), in screen space above the markers: strokes
 * a constant 2 CSS px wide at any zoom, the selected shape with a halo, the shape being drawn
 * (the preview) on top, and the selected shape's edit handles above everything (control points
 * as small squares, segment midpoints as small circles, the active one filled).
 *
 * Drawing is cached: shapes are drawn at `layout = toScreen(map) − toScreen(0, 0)` under the
 * container, which sits at `toScreen(0, 0)`. A pan only moves the container; the Graphics are
 * rebuilt when the zoom or the content (shapes, selection, preview, handles) changes.
 * Text shapes use one Pixi `Text` each, kept per shape id (never made per frame).
 */
import { Container, Graphics, Text, TextStyle } from 'pixi.js';
import { circleRadius, shapeVertices, type DrawnShape, type Handle } from '../domain/shape-geometry';
import { TEXT_LABEL_FONT_PX, TEXT_LABEL_OUTLINE_PX, textLabelSize } from '../domain/text-label';

/** Stroke width of every shape, CSS px, at any zoom. */
export const SHAPE_STROKE_PX = 2;
const COLOUR = 0xff5a36;
const PREVIEW_COLOUR = 0xffa23a;
const HALO_COLOUR = 0xffd54a;
const HALO_PX = 7;
const HANDLE_PX = 8;
const MID_RADIUS_PX = 4;
const HANDLE_COLOUR = 0x1a73e8;
const ARROW_HEAD_PX = 12;
const PIN_COLOUR = 0x2f8cff;
/** Space between a selected text's label and its frame, CSS px. */
const TEXT_FRAME_PAD_PX = 4;
/** Below this length (CSS px) a shape is too small to draw (a press that has not moved yet). */
const MIN_DRAW_PX = 0.01;

type ToScreen = (mapX: number, mapY: number) => { x: number; y: number };
type Pt = { x: number; y: number };

export class ShapeLayer {
  readonly container = new Container({ label: 'shapes' });
  private readonly halo = new Graphics({ label: 'shape-halo' });
  private readonly strokes = new Graphics({ label: 'shape-strokes' });
  private readonly texts = new Container({ label: 'shape-texts' });
  private readonly preview = new Graphics({ label: 'shape-preview' });
  private readonly handleG = new Graphics({ label: 'shape-handles' });
  private readonly textStyle = new TextStyle({
    fontFamily: 'sans-serif',
    fontSize: TEXT_LABEL_FONT_PX,
    fill: 0xffffff,
    stroke: { color: 0x000000, width: TEXT_LABEL_OUTLINE_PX },
  });
  private readonly textById = new Map<string, Text>();

  private shapes: readonly DrawnShape[] = [];
  private previewShape: DrawnShape | null = null;
  private selected: string | null = null;
  private handles: readonly Handle[] = [];
  private activeHandle = -1;

  private dirty = true;
  /** Zoom and origin (toScreen(0, 0)) the Graphics were last built with; NaN: never. */
  private drawnZoom = NaN;
  private drawnOrigin: Pt = { x: NaN, y: NaN };
  private redraws_ = 0;

  constructor() {
    this.container.addChild(this.halo, this.strokes, this.texts, this.preview, this.handleG);
  }

  /** How many times the Graphics were rebuilt (tests: a pan must not rebuild). */
  get redraws(): number {
    return this.redraws_;
  }

  setShapes(shapes: readonly DrawnShape[]): void {
    if (shapes === this.shapes) return;
    this.shapes = shapes;
    this.dirty = true;
  }

  setPreview(shape: DrawnShape | null): void {
    if (shape === this.previewShape) return;
    this.previewShape = shape;
    this.dirty = true;
  }

  setSelected(id: string | null): void {
    if (id === this.selected) return;
    this.selected = id;
    this.dirty = true;
  }

  /** The selected shape's handles; `active` is the index into `handles` of the one being dragged (−1: none). */
  setHandles(handles: readonly Handle[], active: number): void {
    if (handles === this.handles && active === this.activeHandle) return;
    this.handles = handles;
    this.activeHandle = active;
    this.dirty = true;
  }

  /**
   * Places the layer for the camera: moves the container on a pan, rebuilds the Graphics
   * when the zoom or the content changed. True when it rebuilt.
   */
  update(toScreen: ToScreen, zoom: number): boolean {
    const origin = toScreen(0, 0);
    const empty = this.shapes.length === 0 && !this.previewShape && this.handles.length === 0;
    this.container.visible = !empty;
    if (!this.dirty && zoom === this.drawnZoom) {
      this.container.position.set(origin.x, origin.y);
      return false;
    }
    this.dirty = false;
    this.drawnZoom = zoom;
    this.drawnOrigin = origin;
    this.container.position.set(origin.x, origin.y);
    // Layout: screen position relative to the container.
    const at: ToScreen = (x, y) => {
      const s = toScreen(x, y);
      return { x: s.x - this.drawnOrigin.x, y: s.y - this.drawnOrigin.y };
    };
    this.redraw(at, zoom);
    this.redraws_++;
    return true;
  }

  private redraw(at: ToScreen, zoom: number): void {
    this.halo.clear();
    this.strokes.clear();
    this.preview.clear();
    this.handleG.clear();
    const live = new Set<string>();
    for (const shape of this.shapes) {
      if (shape.id === this.selected) this.drawShape(this.halo, shape, at, zoom, HALO_COLOUR, HALO_PX, 0.55);
      this.drawShape(this.strokes, shape, at, zoom, COLOUR, SHAPE_STROKE_PX, 1);
      if (shape.type === 'text') {
        live.add(shape.id);
        this.placeText(shape, at);
      }
    }
    for (const [id, text] of this.textById) {
      if (!live.has(id)) {
        text.destroy();
        this.textById.delete(id);
      }
    }
    const p = this.previewShape;
    if (p) {
      this.drawShape(this.preview, p, at, zoom, PREVIEW_COLOUR, SHAPE_STROKE_PX, 0.9);
      // A text preview is a point (its text shows once added).
      if (p.type === 'text') this.drawDot(this.preview, at(p.geometry.x, p.geometry.y), PREVIEW_COLOUR);
    }
    this.drawHandles(at);
  }

  private drawShape(g: Graphics, shape: DrawnShape, at: ToScreen, zoom: number, color: number, width: number, alpha: number): void {
    const stroke = { width, color, alpha, cap: 'round' as const, join: 'round' as const };
    const geo = shape.geometry;
    switch (shape.type) {
      case 'pen':
      case 'poly':
      case 'line':
      case 'arrow': {
        const pts = shapeVertices(shape).map(([x, y]) => at(x, y));
        if (pts.length === 1 || pathLength(pts) < MIN_DRAW_PX) {
          if (shape.type === 'poly' && pts.length > 0) this.drawDot(g, pts[0], color, alpha, width);
          return;
        }
        g.moveTo(pts[0].x, pts[0].y);
        for (let i = 1; i < pts.length; i++) g.lineTo(pts[i].x, pts[i].y);
        g.stroke(stroke);
        if (shape.type === 'arrow') this.drawArrowHead(g, pts, color, alpha, width);
        return;
      }
      case 'rect': {
        const a = at(geo.x, geo.y);
        const b = at(geo.x1 ?? geo.x, geo.y1 ?? geo.y);
        const w = Math.abs(b.x - a.x);
        const h = Math.abs(b.y - a.y);
        if (w < MIN_DRAW_PX && h < MIN_DRAW_PX) return;
        g.rect(Math.min(a.x, b.x), Math.min(a.y, b.y), w, h).stroke(stroke);
        return;
      }
      case 'circle': {
        const r = circleRadius(shape) * zoom;
        if (r < MIN_DRAW_PX) return;
        const c = at(geo.x, geo.y);
        g.circle(c.x, c.y, r).stroke(stroke);
        return;
      }
      case 'marker':
        this.drawPin(g, at(geo.x, geo.y), width > SHAPE_STROKE_PX ? color : PIN_COLOUR, alpha, width > SHAPE_STROKE_PX);
        return;
      case 'text': {
        // The halo of a selected text: a frame around its label, the label's estimated size
        // (text-label.ts), which is also its hit area (shapes.ts `shapeContains`): what is framed
        // is what can be grabbed. Not the Text's measured size: that needs a canvas to measure
        // with, and a frame drawn before the Text was placed had none (a fixed box then).
        if (width > SHAPE_STROKE_PX) {
          const c = at(geo.x, geo.y);
          const f = textFrame(shape.name, c);
          g.rect(f.x, f.y, f.width, f.height).stroke({ ...stroke, width: 3 });
        }
        return;
      }
    }
  }

  /** A filled triangle at the last point, along the last segment that has a length. */
  private drawArrowHead(g: Graphics, pts: readonly Pt[], color: number, alpha: number, width: number): void {
    const tip = pts[pts.length - 1];
    let from = pts[pts.length - 2];
    for (let i = pts.length - 2; i >= 0 && Math.hypot(tip.x - from.x, tip.y - from.y) < MIN_DRAW_PX; i--) from = pts[i];
    const len = Math.hypot(tip.x - from.x, tip.y - from.y);
    if (len < MIN_DRAW_PX) return;
    const ux = (tip.x - from.x) / len;
    const uy = (tip.y - from.y) / len;
    const size = ARROW_HEAD_PX + (width - SHAPE_STROKE_PX);
    const bx = tip.x - ux * size;
    const by = tip.y - uy * size;
    const half = size * 0.45;
    g.poly([tip.x, tip.y, bx - uy * half, by + ux * half, bx + uy * half, by - ux * half], true).fill({ color, alpha });
  }

  /** A small map pin whose tip is the point. */
  private drawPin(g: Graphics, p: Pt, color: number, alpha: number, halo: boolean): void {
    const r = halo ? 9 : 6;
    const cy = p.y - 16;
    g.poly([p.x, p.y, p.x - r * 0.8, cy + r * 0.55, p.x + r * 0.8, cy + r * 0.55], true).fill({ color, alpha });
    g.circle(p.x, cy, r).fill({ color, alpha });
    if (!halo) g.circle(p.x, cy, r * 0.4).fill({ color: 0xffffff, alpha });
  }

  private drawDot(g: Graphics, p: Pt, color: number, alpha = 1, width = SHAPE_STROKE_PX): void {
    g.circle(p.x, p.y, Math.max(2.5, width / 2 + 1)).fill({ color, alpha });
  }

  private placeText(shape: DrawnShape, at: ToScreen): void {
    let t = this.textById.get(shape.id);
    const label = shape.name || ' ';
    if (!t) {
      t = new Text({ text: label, style: this.textStyle, anchor: 0.5 });
      this.textById.set(shape.id, t);
      this.texts.addChild(t);
    } else if (t.text !== label) {
      t.text = label;
    }
    const p = at(shape.geometry.x, shape.geometry.y);
    t.position.set(Math.round(p.x), Math.round(p.y));
  }

  private drawHandles(at: ToScreen): void {
    const g = this.handleG;
    this.handles.forEach((h, i) => {
      const p = at(h.x, h.y);
      const active = i === this.activeHandle;
      if (h.kind === 'point') {
        const s = HANDLE_PX / 2;
        g.rect(p.x - s, p.y - s, HANDLE_PX, HANDLE_PX)
          .fill({ color: active ? HANDLE_COLOUR : 0xffffff })
          .stroke({ color: HANDLE_COLOUR, width: 1.5 });
      } else {
        g.circle(p.x, p.y, MID_RADIUS_PX)
          .fill({ color: active ? HANDLE_COLOUR : 0xffffff, alpha: active ? 1 : 0.7 })
          .stroke({ color: HANDLE_COLOUR, width: 1, alpha: 0.8 });
      }
    });
  }

  dispose(): void {
    this.textById.clear();
    this.container.destroy({ children: true });
  }
}

/** The frame (CSS px, layout space) around the label of a text centred at `c`. */
export function textFrame(label: string, c: Pt): { x: number; y: number; width: number; height: number } {
  const { width, height } = textLabelSize(label || ' ');
  const w = width + 2 * TEXT_FRAME_PAD_PX;
  const h = height + 2 * TEXT_FRAME_PAD_PX;
  return { x: c.x - w / 2, y: c.y - h / 2, width: w, height: h };
}

function pathLength(pts: readonly Pt[]): number {
  let len = 0;
  for (let i = 1; i < pts.length; i++) len += Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
  return len;
}

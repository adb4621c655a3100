/**
 * The draw tool: one child per shape type, each `idle` ⇄ `drawing` (paths `draw.rect.idle`,
 * `draw.rect.drawing`, …). Entered with `{ shape }` (the toolbar, or key l for `marker`).
 * The map does not pan while drawing; the wheel still zooms.
 *
 * - rect, line, arrow, circle, pen: press starts, drag updates the end, release finishes;
 *   the domain discards rect / line / arrow / circle drags under 10 px (spec §4, §5).
 * - poly: each press adds a point and the shape stays open (spec §4); a press on one of its
 *   points drags that point instead; a double-click on a point removes it, unless the
 *   double-click's own first press added it (a double-click on empty map keeps its point). The
 *   first point is a preview: the shape exists from its second point on.
 * - text: a click places a text shape labelled `host.defaultTextLabel()` ("Text" in the page's
 *   language), selects it and asks for its label to be typed (`selectShape(id, { editLabel: true })`:
 *   the tools panel's Label field takes the keyboard).
 * - marker: a click places a marker through the editor (saved to the server).
 */
import { SHAPE_TYPES, addPolyPoint, dragShape, finishShape, movePoint, removePoint, startShape, type DrawnShape, type ShapeType } from '../domain/shapes';
import { StateNode, type ToolContext, type ToolEventOf } from '../engine/interaction';
import { isClick, type PointerSample } from '../engine/kernels/hit';
import { isUndoRedoKey, sample } from './shared';

/** The shape a draw tool starts with when none is named. */
const DEFAULT_SHAPE: ShapeType = 'marker';
/** A new text's label when the host names none (`ToolHost.defaultTextLabel`). */
const DEFAULT_TEXT_LABEL = 'Text';

/** Press-drag-release shapes: rect, line, arrow, circle, pen. */
class DragIdle extends StateNode {
  readonly id = 'idle';

  constructor(ctx: ToolContext, private readonly type: ShapeType) {
    super(ctx);
  }

  onEnter(): void {
    this.ctx.setCursor('crosshair');
  }

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button !== 0) return;
    const at = this.ctx.toMap(e.screenX, e.screenY);
    const shape = startShape(this.type, this.ctx.host.newShapeId(), at);
    this.ctx.setPreview(shape);
    this.transition('drawing', { shape, down: sample(e) });
  }
}

class DragDrawing extends StateNode {
  readonly id = 'drawing';
  private shape: DrawnShape | null = null;
  private down: PointerSample = { screenX: 0, screenY: 0, time: 0 };

  onEnter(info: unknown): void {
    const { shape, down } = info as { shape: DrawnShape; down: PointerSample };
    this.shape = shape;
    this.down = down;
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    if (!this.shape) return;
    this.shape = dragShape(this.shape, this.ctx.toMap(e.screenX, e.screenY));
    this.ctx.setPreview(this.shape);
  }

  onPointerUp(e: ToolEventOf<'pointer_up'>): void {
    const shape = this.shape ? dragShape(this.shape, this.ctx.toMap(e.screenX, e.screenY)) : null;
    this.shape = null;
    this.ctx.setPreview(null);
    const finished = shape ? finishShape(shape, e.screenX - this.down.screenX, e.screenY - this.down.screenY) : null;
    if (finished) this.ctx.host.addShape(finished);
    this.transition('idle');
  }

  onPointerCancel(): void {
    this.transition('idle');
  }

  /** Ctrl+Z (or a redo key) mid-drag: the shape being drawn is dropped, nothing else is undone. */
  onKeyDown(e: ToolEventOf<'key_down'>): boolean {
    if (!isUndoRedoKey(e)) return false;
    this.transition('idle');
    return true;
  }

  onExit(): void {
    // Escape, Ctrl+Z or a tool change mid-drag: the unfinished shape is dropped.
    if (this.shape) this.ctx.setPreview(null);
    this.shape = null;
  }
}

/** Click shapes: text (a shape) and marker (a marker saved through the editor). */
class ClickIdle extends StateNode {
  readonly id = 'idle';
  private down: PointerSample | null = null;

  constructor(ctx: ToolContext, private readonly type: 'text' | 'marker') {
    super(ctx);
  }

  onEnter(): void {
    this.ctx.setCursor('crosshair');
  }

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button === 0) this.down = sample(e);
  }

  onPointerUp(e: ToolEventOf<'pointer_up'>): void {
    const down = this.down;
    this.down = null;
    if (!down || !isClick(down, sample(e))) return;
    const at = this.ctx.toMap(down.screenX, down.screenY);
    if (this.type === 'marker') this.ctx.host.placeMarker(at.x, at.y);
    else {
      const shape = finishShape(startShape('text', this.ctx.host.newShapeId(), at), 0, 0);
      if (!shape) return;
      // The new text is the selected shape (not the one selected before: its panel would rename
      // or delete that one), and the keyboard goes to its label, ready to type over "Text" (in
      // the page's language: the host names it).
      this.ctx.host.addShape({ ...shape, name: shape.name || this.ctx.host.defaultTextLabel?.() || DEFAULT_TEXT_LABEL });
      this.ctx.host.selectShape(shape.id, { editLabel: true });
    }
  }
}

/** Poly: `idle` until the first press, then `drawing` while the open shape takes points. */
class PolyIdle extends StateNode {
  readonly id = 'idle';

  onEnter(): void {
    this.ctx.setCursor('crosshair');
  }

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button !== 0) return;
    // A first point alone is only a preview: the shape is added with its second point, so an
    // Escape after one press leaves no invisible one-point shape (nor an undo step for it).
    const first = startShape('poly', this.ctx.host.newShapeId(), this.ctx.toMap(e.screenX, e.screenY));
    this.ctx.setPreview(first);
    this.transition('drawing', { first });
  }
}

class PolyDrawing extends StateNode {
  readonly id = 'drawing';
  private id_ = '';
  /** The first point's shape, shown as a preview until the second press adds it. */
  private first: DrawnShape | null = null;
  /** A point of the open shape being dragged, or -1. */
  private dragging = -1;
  /**
   * Presses so far (the idle state's first press is 1), and the points the last two adding
   * presses added. A double-click is two presses: a point either of them added (a double-click
   * on empty map, to end the outline there) is the double-click's own and stays; spec §4's
   * removal is for points that were there before.
   */
  private presses = 0;
  private addedBy: { press: number; index: number }[] = [];

  onEnter(info: unknown): void {
    this.first = (info as { first: DrawnShape }).first;
    this.id_ = this.first.id;
    this.dragging = -1;
    this.presses = 1;
    this.addedBy = [{ press: 1, index: 0 }];
  }

  onExit(): void {
    if (this.first) this.ctx.setPreview(null);
    this.first = null;
  }

  /**
   * Ctrl+Z (or a redo key) while only the first point is down: that preview is dropped (it is no
   * step yet), nothing else is undone. Once the shape exists, the keys undo as ever.
   */
  onKeyDown(e: ToolEventOf<'key_down'>): boolean {
    if (!this.first || !isUndoRedoKey(e)) return false;
    this.transition('idle');
    return true;
  }

  private shape(): DrawnShape | null {
    return (this.ctx.host.shapes().find((s) => s.id === this.id_) as DrawnShape | undefined) ?? null;
  }

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button !== 0) return;
    this.presses++;
    if (this.first) {
      const shape = addPolyPoint(this.first, this.ctx.toMap(e.screenX, e.screenY));
      this.first = null;
      this.ctx.setPreview(null);
      this.ctx.host.addShape(shape);
      this.ctx.host.selectShape(shape.id);
      this.noteAdded(shape);
      return;
    }
    const shape = this.shape();
    if (!shape) {
      this.transition('idle');
      return;
    }
    const handle = this.ctx.hitHandle(e.screenX, e.screenY);
    if (handle?.kind === 'point') {
      this.dragging = handle.index;
      return;
    }
    const next = addPolyPoint(shape, this.ctx.toMap(e.screenX, e.screenY));
    this.ctx.host.updateShape(next, true);
    this.noteAdded(next);
  }

  /** The press just made added the shape's last point. */
  private noteAdded(shape: DrawnShape): void {
    this.addedBy = [...this.addedBy.slice(-1), { press: this.presses, index: (shape.geometry.points?.length ?? 1) - 1 }];
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    const shape = this.dragging >= 0 ? this.shape() : null;
    if (shape) this.ctx.host.updateShape(movePoint(shape, this.dragging, this.ctx.toMap(e.screenX, e.screenY)), false);
  }

  onPointerUp(): void {
    const shape = this.dragging >= 0 ? this.shape() : null;
    if (shape) this.ctx.host.updateShape(shape, true);
    this.dragging = -1;
  }

  onDoubleClick(e: ToolEventOf<'double_click'>): boolean {
    const shape = this.shape();
    const handle = this.ctx.hitHandle(e.screenX, e.screenY);
    if (!shape || handle?.kind !== 'point') return false;
    // A point the double-click's own presses (the last two) added stays; the double-click is
    // spent all the same (no zoom).
    const own = this.addedBy.some((a) => a.index === handle.index && a.press >= this.presses - 1);
    this.addedBy = [];
    this.dragging = -1;
    if (!own) this.ctx.host.updateShape(removePoint(shape, handle.index), true);
    return true;
  }
}

class ShapeDrawer extends StateNode {
  constructor(ctx: ToolContext, readonly id: ShapeType) {
    super(ctx);
    if (id === 'poly') this.addChildren(new PolyIdle(ctx), new PolyDrawing(ctx));
    else if (id === 'text' || id === 'marker') this.addChildren(new ClickIdle(ctx, id));
    else this.addChildren(new DragIdle(ctx, id), new DragDrawing(ctx));
  }
}

export class DrawTool extends StateNode {
  readonly id = 'draw';

  constructor(ctx: ToolContext) {
    super(ctx);
    this.addChildren(...SHAPE_TYPES.map((type) => new ShapeDrawer(ctx, type)));
  }

  protected override initialChildFor(info: unknown): string {
    const shape = (info as { shape?: unknown } | undefined)?.shape;
    return typeof shape === 'string' && (SHAPE_TYPES as readonly string[]).includes(shape) ? shape : DEFAULT_SHAPE;
  }

  onExit(): void {
    this.ctx.setPreview(null);
  }
}

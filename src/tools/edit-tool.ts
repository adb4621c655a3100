/**
 * The edit tool (the edit toggle, spec §4): select a drawn shape and change it through its
 * handles (leaflet-geoman's vertex and middle markers).
 *
 *   edit.idle ──press on a handle──▶ edit.dragging_handle ──release──▶ edit.idle
 *       │ press on a shape: select it; on a marker: open it; on empty map: drag pans (edit.panning)
 *
 * Dragging a control point moves it; dragging a segment's midpoint inserts a point there and
 * drags it; a double-click on a point removes it; Delete removes the selected shape. Points are
 * rounded as they move (the domain does it). One undo step per drag; Escape (or Ctrl+Z) mid-drag
 * puts the shape back and commits nothing.
 */
import { insertPointAtMidpoint, movePoint, removePoint, type DrawnShape } from '../domain/shapes';
import { StateNode, type EditHandle, type ToolContext, type ToolEventOf } from '../engine/interaction';
import type { PointerSample } from '../engine/kernels/hit';
import { isUndoRedoKey, Panning, Pressing, sample } from './shared';

function selected(ctx: ToolContext): DrawnShape | null {
  const id = ctx.host.selectedShape();
  return id === null ? null : ((ctx.host.shapes().find((s) => s.id === id) as DrawnShape | undefined) ?? null);
}

class Idle extends StateNode {
  readonly id = 'idle';

  onEnter(): void {
    this.ctx.setCursor('default');
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    const onHandle = this.ctx.hitHandle(e.screenX, e.screenY);
    const uid = onHandle ? null : this.ctx.hitTest(e.screenX, e.screenY);
    this.ctx.setHover(uid);
    const onShape = !onHandle && !uid && this.ctx.hitShape(e.screenX, e.screenY) !== null;
    this.ctx.setCursor(onHandle ? 'move' : uid || onShape ? 'pointer' : 'default');
  }

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button !== 0) return;
    const handle = this.ctx.hitHandle(e.screenX, e.screenY);
    if (handle) {
      this.transition('dragging_handle', { handle });
      return;
    }
    this.transition('pointing', sample(e));
  }

  onDoubleClick(e: ToolEventOf<'double_click'>): boolean {
    const shape = selected(this.ctx);
    const handle = this.ctx.hitHandle(e.screenX, e.screenY);
    if (!shape || handle?.kind !== 'point') return false;
    this.ctx.host.updateShape(removePoint(shape, handle.index), true);
    return true;
  }

  onKeyDown(e: ToolEventOf<'key_down'>): boolean {
    if (e.key !== 'Delete' && e.key !== 'Backspace') return false;
    const id = this.ctx.host.selectedShape();
    if (id === null) return false;
    this.ctx.host.removeShape(id);
    return true;
  }
}

class DraggingHandle extends StateNode {
  readonly id = 'dragging_handle';
  private grabbed: EditHandle | null = null;
  private shape: DrawnShape | null = null;
  private changed = false;
  /** The shape as the drag found it. */
  private original: DrawnShape | null = null;

  onEnter(info: unknown): void {
    this.grabbed = (info as { handle: EditHandle }).handle;
    this.shape = selected(this.ctx);
    this.original = this.shape;
    this.changed = false;
    this.ctx.setCursor('move');
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    if (!this.shape || !this.grabbed) return;
    const at = this.ctx.toMap(e.screenX, e.screenY);
    if (this.grabbed.kind === 'mid') {
      // The midpoint becomes a vertex after the segment's start, then moves as one.
      this.shape = insertPointAtMidpoint(this.shape, this.grabbed.index, at);
      this.grabbed = { kind: 'point', index: this.grabbed.index + 1, x: at.x, y: at.y };
    } else {
      this.shape = movePoint(this.shape, this.grabbed.index, at);
    }
    this.changed = true;
    this.ctx.host.updateShape(this.shape, false);
  }

  onPointerUp(): void {
    if (this.changed && this.shape) this.ctx.host.updateShape(this.shape, true);
    this.changed = false;
    this.transition('idle');
  }

  onPointerCancel(): void {
    this.onPointerUp();
  }

  /** Ctrl+Z (or a redo key) mid-drag: the drag is cancelled as by Escape; nothing else is undone. */
  onKeyDown(e: ToolEventOf<'key_down'>): boolean {
    if (!isUndoRedoKey(e)) return false;
    this.transition('idle');
    return true;
  }

  onExit(): void {
    // Escape, Ctrl+Z or a tool change mid-drag: the shape goes back to where the drag began and
    // nothing is committed, as a move drag does (a release has already committed and cleared `changed`).
    if (this.changed && this.original) this.ctx.host.updateShape(this.original, false);
    this.changed = false;
  }
}

export class EditTool extends StateNode {
  readonly id = 'edit';

  constructor(ctx: ToolContext) {
    super(ctx);
    // A press not on a handle: a click selects the shape under it (or opens the marker), a drag pans.
    const click = ({ screenX, screenY }: PointerSample) => {
      const shapeId = ctx.hitShape(screenX, screenY);
      const uid = shapeId ? null : ctx.hitTest(screenX, screenY);
      ctx.host.selectShape(shapeId);
      if (uid) ctx.markerClick(uid);
      else if (!shapeId) {
        const at = ctx.toMap(screenX, screenY);
        ctx.mapClick(at.x, at.y);
      }
    };
    this.addChildren(new Idle(ctx), new Pressing(ctx, click), new DraggingHandle(ctx), new Panning(ctx));
  }
}

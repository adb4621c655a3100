/**
 * The move tool (key m or the Move button, spec §4): drag a marker or a drawn shape.
 *
 *   move.idle ──press on a marker or shape──▶ move.dragging ──release──▶ move.idle (saved)
 *        │ press on empty map: drag pans (move.panning)
 *
 * With Shift held the movement is divided by 10 (the slow modifier). A marker is saved where
 * it is released (the update call, through the editor); with Alt held at the press, the
 * marker stays and a copy is placed at the release point instead. Escape mid-drag puts the
 * marker back and saves nothing.
 */
import { moveDelta, roundCoord, translateShape, type DrawnShape } from '../domain/shapes';
import { StateNode, type MapPoint, type ToolContext, type ToolEventOf } from '../engine/interaction';
import { isClick, movedBeyond, type PointerSample } from '../engine/kernels/hit';
import { isUndoRedoKey, Panning, Pressing, sample } from './shared';

type Target = { kind: 'marker'; uid: string; origin: MapPoint; copy: boolean } | { kind: 'shape'; shape: DrawnShape };

class Idle extends StateNode {
  readonly id = 'idle';

  onEnter(): void {
    this.ctx.setCursor('default');
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    const uid = this.ctx.hitTest(e.screenX, e.screenY);
    this.ctx.setHover(uid);
    this.ctx.setCursor(uid || this.ctx.hitShape(e.screenX, e.screenY) ? 'move' : 'default');
  }

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button !== 0) return;
    const uid = this.ctx.hitTest(e.screenX, e.screenY);
    const origin = uid ? this.ctx.markerPosition(uid) : null;
    let target: Target | null = null;
    if (uid && origin) target = { kind: 'marker', uid, origin, copy: e.altKey };
    else {
      const id = this.ctx.hitShape(e.screenX, e.screenY);
      const shape = id ? (this.ctx.host.shapes().find((s) => s.id === id) as DrawnShape | undefined) : undefined;
      if (shape) {
        this.ctx.host.selectShape(shape.id);
        target = { kind: 'shape', shape };
      }
    }
    if (target) this.transition('dragging', { target, down: sample(e) });
    else this.transition('pointing', sample(e));
  }
}

class Dragging extends StateNode {
  readonly id = 'dragging';
  private target: Target | null = null;
  private down: PointerSample = { screenX: 0, screenY: 0, time: 0 };
  private last = { screenX: 0, screenY: 0 };
  /** Map-pixel offset dragged so far (slow movement already divided). */
  private dx = 0;
  private dy = 0;
  private moved = false;

  onEnter(info: unknown): void {
    const { target, down } = info as { target: Target; down: PointerSample };
    this.target = target;
    this.down = down;
    this.last = { screenX: down.screenX, screenY: down.screenY };
    this.dx = 0;
    this.dy = 0;
    this.moved = false;
    this.ctx.setHover(null);
    this.ctx.setCursor(target.kind === 'marker' && target.copy ? 'copy' : 'grabbing');
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    if (!this.target) return;
    if (!this.moved && !movedBeyond(this.down, e)) return;
    const zoom = this.ctx.zoom();
    const step = moveDelta((e.screenX - this.last.screenX) / zoom, (e.screenY - this.last.screenY) / zoom, e.shiftKey);
    this.last = { screenX: e.screenX, screenY: e.screenY };
    this.dx += step.dx;
    this.dy += step.dy;
    this.moved = true;
    this.show();
  }

  onPointerUp(e: ToolEventOf<'pointer_up'>): void {
    const target = this.target;
    this.target = null;
    if (target && !this.moved) {
      if (target.kind === 'marker' && isClick(this.down, sample(e))) this.ctx.markerClick(target.uid);
    } else if (target?.kind === 'marker') {
      const x = roundCoord(target.origin.x + this.dx);
      const y = roundCoord(target.origin.y + this.dy);
      if (target.copy) {
        this.ctx.setPreview(null);
        this.ctx.host.copyMarkerTo(target.uid, x, y);
      } else {
        this.ctx.previewMarkerAt(target.uid, x, y);
        this.ctx.host.moveMarker(target.uid, x, y);
      }
    } else if (target?.kind === 'shape') {
      this.ctx.host.updateShape(translateShape(target.shape, this.dx, this.dy), true);
    }
    this.transition('idle');
  }

  onPointerCancel(): void {
    this.cancel();
    this.transition('idle');
  }

  /** Ctrl+Z (or a redo key) mid-drag: the drag is cancelled as by Escape; nothing else is undone. */
  onKeyDown(e: ToolEventOf<'key_down'>): boolean {
    if (!isUndoRedoKey(e)) return false;
    this.transition('idle');
    return true;
  }

  onExit(): void {
    // Escape, Ctrl+Z or a tool change mid-drag: everything goes back, nothing is saved.
    this.cancel();
  }

  private show(): void {
    const target = this.target;
    if (!target) return;
    if (target.kind === 'shape') {
      this.ctx.host.updateShape(translateShape(target.shape, this.dx, this.dy), false);
    } else if (target.copy) {
      const x = target.origin.x + this.dx;
      const y = target.origin.y + this.dy;
      this.ctx.setPreview({ id: 'copy-preview', type: 'marker', geometry: { x, y }, name: '' });
    } else {
      this.ctx.previewMarkerAt(target.uid, target.origin.x + this.dx, target.origin.y + this.dy);
    }
  }

  private cancel(): void {
    const target = this.target;
    this.target = null;
    if (!target || !this.moved) return;
    if (target.kind === 'shape') this.ctx.host.updateShape(target.shape, false);
    else if (target.copy) this.ctx.setPreview(null);
    else this.ctx.previewMarkerAt(target.uid, target.origin.x, target.origin.y);
  }
}

export class MoveTool extends StateNode {
  readonly id = 'move';

  constructor(ctx: ToolContext) {
    super(ctx);
    // A press on empty map: a click drops the shape selection (and closes the popup), a drag pans.
    const click = ({ screenX, screenY }: PointerSample) => {
      ctx.host.selectShape(null);
      const at = ctx.toMap(screenX, screenY);
      ctx.mapClick(at.x, at.y);
    };
    this.addChildren(new Idle(ctx), new Pressing(ctx, click), new Dragging(ctx), new Panning(ctx));
  }
}

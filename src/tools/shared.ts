/** Pieces the tools share: pointer samples, and a `panning` state for drags on empty map. */
import type { ToolContext, ToolEventOf } from '../engine/interaction';
import { StateNode } from '../engine/interaction';
import { isClick, movedBeyond, type PointerSample } from '../engine/kernels/hit';
import { shortcutKey } from '../domain/keyboard-layout';

/**
 * Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y (⌘ too): the root's undo / redo keys (root-state.ts). A state
 * with a gesture in progress (a shape being drawn, a drag) takes them itself: the gesture is
 * cancelled as Escape would, and nothing is undone or redone under it.
 */
export function isUndoRedoKey(e: { key: string; code?: string; ctrlKey?: boolean; metaKey?: boolean }): boolean {
  if (!e.ctrlKey && !e.metaKey) return false;
  // As the root reads them: Ctrl+я on the Russian layout is Ctrl+Z (domain/keyboard-layout.ts).
  const key = shortcutKey(e.key, e.code);
  return key === 'z' || key === 'y';
}

export const sample = (e: { screenX: number; screenY: number; time: number; pointerType?: string }): PointerSample => ({
  screenX: e.screenX,
  screenY: e.screenY,
  time: e.time,
  ...(e.pointerType ? { pointerType: e.pointerType } : {}),
});

/**
 * Dragging the map from a press on empty map (in pan, and in the idle states of edit and
 * move). Entered with `{ from, to }`: the whole delta since the press is applied at once.
 * Leaves to its sibling `idle`.
 */
export class Panning extends StateNode {
  readonly id: string;
  private last = { screenX: 0, screenY: 0 };

  constructor(ctx: ConstructorParameters<typeof StateNode>[0], id = 'panning') {
    super(ctx);
    this.id = id;
  }

  onEnter(info: unknown): void {
    const { from, to } = info as { from: PointerSample; to: PointerSample };
    this.ctx.setHover(null);
    this.ctx.setCursor('grabbing');
    this.last = from;
    this.moveTo(to);
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    this.moveTo(e);
  }

  onPointerUp(): void {
    this.transition('idle');
  }

  onPointerCancel(): void {
    this.transition('idle');
  }

  private moveTo(p: { screenX: number; screenY: number }): void {
    const dx = p.screenX - this.last.screenX;
    const dy = p.screenY - this.last.screenY;
    this.last = { screenX: p.screenX, screenY: p.screenY };
    if (dx !== 0 || dy !== 0) this.ctx.panBy(dx, dy);
  }
}

/**
 * A press on the map that is not yet a click or a drag (`pointing`): moving 5 px makes it a
 * drag of the map (the sibling `dragState`, entered with `{ from, to }`); a release within
 * 300 ms is a click (spec §9), handed to `onClick` with the press point. Leaves to `idle`.
 */
export class Pressing extends StateNode {
  readonly id = 'pointing';
  private down: PointerSample = { screenX: 0, screenY: 0, time: 0 };

  constructor(
    ctx: ToolContext,
    private readonly onClick: (down: PointerSample) => void,
    private readonly dragState = 'panning',
  ) {
    super(ctx);
  }

  onEnter(info: unknown): void {
    this.down = info as PointerSample;
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    if (movedBeyond(this.down, e)) this.transition(this.dragState, { from: this.down, to: sample(e) });
  }

  onPointerUp(e: ToolEventOf<'pointer_up'>): void {
    if (isClick(this.down, sample(e))) this.onClick(this.down);
    this.transition('idle');
  }

  onPointerCancel(): void {
    this.transition('idle');
  }
}

/**
 * The pan tool (default): drag pans, a quick press-and-release clicks a marker or the map
 * (spec §9: under 300 ms, no drag), hovering shows a marker's label.
 *
 *   pan.idle ──down──▶ pan.pointing ──move ≥ 5 px──▶ pan.dragging
 *      ▲                   │ up (click if < 300 ms)       │ up / cancel
 *      └───────────────────┴──────────────────────────────┘
 */
import { isClick, movedBeyond, type PointerSample } from '../engine/kernels/hit';
import type { ToolContext, ToolEventOf } from './events';
import { StateNode } from './state-node';

const sample = (e: { screenX: number; screenY: number; time: number }): PointerSample => ({
  screenX: e.screenX,
  screenY: e.screenY,
  time: e.time,
});

class Idle extends StateNode {
  readonly id = 'idle';

  onPointerDown(e: ToolEventOf<'pointer_down'>): void {
    if (e.button !== 0) return;
    this.transition('pointing', sample(e));
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    const uid = this.ctx.hitTest(e.screenX, e.screenY);
    this.ctx.setHover(uid);
    this.ctx.setCursor(uid ? 'pointer' : 'grab');
  }

  onPointerLeave(): void {
    this.ctx.setHover(null);
  }
}

class Pointing extends StateNode {
  readonly id = 'pointing';
  private down: PointerSample = { screenX: 0, screenY: 0, time: 0 };

  onEnter(info: unknown): void {
    this.down = info as PointerSample;
  }

  onPointerMove(e: ToolEventOf<'pointer_move'>): void {
    if (movedBeyond(this.down, e)) this.transition('dragging', { from: this.down, to: sample(e) });
  }

  onPointerUp(e: ToolEventOf<'pointer_up'>): void {
    if (isClick(this.down, sample(e))) {
      const uid = this.ctx.hitTest(this.down.screenX, this.down.screenY);
      if (uid) this.ctx.markerClick(uid);
      else {
        const map = this.ctx.toMap(this.down.screenX, this.down.screenY);
        this.ctx.mapClick(map.x, map.y);
      }
    }
    this.transition('idle');
  }

  onPointerCancel(): void {
    this.transition('idle');
  }
}

class Dragging extends StateNode {
  readonly id = 'dragging';
  private last = { screenX: 0, screenY: 0 };

  onEnter(info: unknown): void {
    const { from, to } = info as { from: PointerSample; to: PointerSample };
    this.ctx.setHover(null);
    this.ctx.setCursor('grabbing');
    // The press point, not the threshold crossing, is where the drag began: apply the whole delta.
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

  onExit(): void {
    this.ctx.setCursor('grab');
  }

  private moveTo(p: { screenX: number; screenY: number }): void {
    const dx = p.screenX - this.last.screenX;
    const dy = p.screenY - this.last.screenY;
    this.last = { screenX: p.screenX, screenY: p.screenY };
    if (dx !== 0 || dy !== 0) this.ctx.panBy(dx, dy);
  }
}

export class PanTool extends StateNode {
  readonly id = 'pan';

  constructor(ctx: ToolContext) {
    super(ctx);
    this.addChildren(new Idle(ctx), new Pointing(ctx), new Dragging(ctx));
  }

  onEnter(): void {
    this.ctx.setCursor('grab');
  }
}

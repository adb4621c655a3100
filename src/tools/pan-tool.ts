/**
 * The pan tool (default): drag pans, a quick press-and-release clicks a marker or the map
 * (spec §9: under 300 ms, no drag), hovering shows a marker's label.
 *
 *   pan.idle ──down──▶ pan.pointing ──move ≥ 5 px──▶ pan.dragging
 *      ▲                   │ up (click if < 300 ms)       │ up / cancel
 *      └───────────────────┴──────────────────────────────┘
 */
import { StateNode, type ToolContext, type ToolEventOf } from '../engine/interaction';
import { isClick, movedBeyond, type PointerSample } from '../engine/kernels/hit';
import { Panning, sample } from './shared';

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

class Dragging extends Panning {
  constructor(ctx: ToolContext) {
    super(ctx, 'dragging');
  }

  onExit(): void {
    this.ctx.setCursor('grab');
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

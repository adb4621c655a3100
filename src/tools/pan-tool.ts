/**
 * The pan tool (default): drag pans, a quick press-and-release clicks a marker or the map
 * (spec §9: under 300 ms, no drag), hovering shows a marker's label.
 *
 *   pan.idle ──down──▶ pan.pointing ──move ≥ 5 px──▶ pan.dragging
 *      ▲                   │ up (click if < 300 ms)       │ up / cancel
 *      └───────────────────┴──────────────────────────────┘
 */
import { StateNode, type ToolContext, type ToolEventOf } from '../engine/interaction';
import type { PointerSample } from '../engine/kernels/hit';
import { Panning, Pressing, sample } from './shared';

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
    const click = ({ screenX, screenY }: PointerSample) => {
      const uid = ctx.hitTest(screenX, screenY);
      if (uid) ctx.markerClick(uid);
      else {
        const map = ctx.toMap(screenX, screenY);
        ctx.mapClick(map.x, map.y);
      }
    };
    this.addChildren(new Idle(ctx), new Pressing(ctx, click, 'dragging'), new Dragging(ctx));
  }

  onEnter(): void {
    this.ctx.setCursor('grab');
  }
}

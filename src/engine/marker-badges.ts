/**
 * Badges on markers that an admin changed and the server does not hold yet: a blue "…" while
 * the change is being saved, a red "!" when it failed or conflicts with another admin's change
 * (docs/EDITOR.md "Unsaved changes"). They sit at the icon's top-right corner, follow its
 * level's opacity and show only where the marker itself is drawn. Few markers are flagged at a
 * time, so each badge is one Graphics sharing one of two contexts.
 */
import { Container, Graphics, GraphicsContext } from 'pixi.js';
import type { FlaggedSlot, MarkerFlag } from './types';

/** Where a badge sits and how big it is, in icon sizes (1 = the icon's CSS size). */
export const BADGE_OFFSET = 0.42;

/** The few facts of a placement a badge needs (MarkerPlacement has them). */
export interface BadgePlacement {
  readonly iconCss: number;
  readonly markers: { readonly x: ArrayLike<number>; readonly y: ArrayLike<number>; readonly uids: readonly string[] } | null;
  isDrawn(index: number): boolean;
  alphaOf(index: number): number;
}

function badgeContexts(): Record<MarkerFlag, GraphicsContext> {
  const failed = new GraphicsContext()
    .circle(0, 0, 0.24)
    .fill({ color: 0xd9412b })
    .stroke({ color: 0xffffff, width: 0.06 })
    .rect(-0.03, -0.15, 0.06, 0.17)
    .fill({ color: 0xffffff })
    .circle(0, 0.1, 0.035)
    .fill({ color: 0xffffff });
  const saving = new GraphicsContext()
    .circle(0, 0, 0.2)
    .fill({ color: 0x2f6fdf })
    .stroke({ color: 0xffffff, width: 0.05 });
  for (const x of [-0.09, 0, 0.09]) saving.circle(x, 0, 0.028).fill({ color: 0xffffff });
  return { failed, saving };
}

export class MarkerBadges {
  readonly container = new Container({ label: 'marker-badges' });
  private readonly contexts = badgeContexts();
  private flags: readonly FlaggedSlot[] = [];
  private readonly pool: Graphics[] = [];

  /** The flagged slots (replaces the previous ones). */
  set(flags: readonly FlaggedSlot[]): void {
    this.flags = flags.map((f) => ({ ...f }));
  }

  /** Places each badge on its drawn marker and hides the rest. */
  update(screen: (x: number, y: number) => { x: number; y: number }, placement: BadgePlacement): void {
    const cols = placement.markers;
    let used = 0;
    if (cols) {
      const size = placement.iconCss;
      for (const { index, flag } of this.flags) {
        if (index < 0 || index >= cols.uids.length || cols.uids[index] === '' || !placement.isDrawn(index)) continue;
        const badge = this.badge(used++);
        badge.context = this.contexts[flag];
        const s = screen(cols.x[index], cols.y[index]);
        badge.position.set(s.x + size * BADGE_OFFSET, s.y - size * BADGE_OFFSET);
        badge.scale.set(size);
        badge.alpha = placement.alphaOf(index);
        badge.visible = true;
      }
    }
    for (let i = used; i < this.pool.length; i++) this.pool[i].visible = false;
  }

  dispose(): void {
    this.container.destroy({ children: true });
    this.contexts.failed.destroy();
    this.contexts.saving.destroy();
  }

  private badge(i: number): Graphics {
    let g = this.pool[i];
    if (!g) {
      g = new Graphics(this.contexts.failed);
      this.pool.push(g);
      this.container.addChild(g);
    }
    return g;
  }
}

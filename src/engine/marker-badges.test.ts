// @vitest-environment jsdom
/**
 * MarkerBadges: a badge per flagged marker that is drawn, at the icon's top-right corner, sized
 * with the icon, with its level's opacity; none for an emptied slot or a marker not drawn.
 */
import { Graphics } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { BADGE_OFFSET, MarkerBadges, type BadgePlacement } from './marker-badges';

function placement(drawn: Set<number>, iconCss = 24): BadgePlacement {
  return {
    iconCss,
    markers: { x: [100, 200, 300, 400], y: [50, 60, 70, 80], uids: ['a', 'b', '', 'd'] },
    isDrawn: (i) => drawn.has(i),
    alphaOf: (i) => (i === 3 ? 0.2 : 1),
  };
}

const screen = (x: number, y: number) => ({ x: x * 2, y: y * 2 });
const shown = (badges: MarkerBadges) => (badges.container.children as Graphics[]).filter((g) => g.visible);

describe('MarkerBadges', () => {
  it('places one badge per flagged, drawn marker at its icon corner, scaled with the icon and faded with its level', () => {
    const badges = new MarkerBadges();
    badges.set([{ index: 0, flag: 'saving' }, { index: 1, flag: 'failed' }, { index: 3, flag: 'failed' }]);
    badges.update(screen, placement(new Set([0, 3])));
    const [first, second] = shown(badges);
    expect(shown(badges)).toHaveLength(2);
    expect(first.position).toMatchObject({ x: 200 + 24 * BADGE_OFFSET, y: 100 - 24 * BADGE_OFFSET });
    expect(first.scale.x).toBe(24);
    expect(first.alpha).toBe(1);
    expect(second.position).toMatchObject({ x: 800 + 24 * BADGE_OFFSET, y: 160 - 24 * BADGE_OFFSET });
    expect(second.alpha).toBe(0.2);
    // The two kinds look different: each shares its own drawing.
    expect(first.context).not.toBe(second.context);
  });

  it('hides badges no longer flagged, of an emptied slot or of a slot out of range, and reuses its Graphics', () => {
    const badges = new MarkerBadges();
    badges.set([{ index: 0, flag: 'failed' }, { index: 1, flag: 'failed' }]);
    badges.update(screen, placement(new Set([0, 1, 2, 3])));
    expect(shown(badges)).toHaveLength(2);
    const pool = [...badges.container.children];
    badges.set([{ index: 2, flag: 'failed' }, { index: 9, flag: 'saving' }, { index: 1, flag: 'saving' }]);
    badges.update(screen, placement(new Set([0, 1, 2, 3])));
    expect(shown(badges)).toHaveLength(1);
    expect(badges.container.children).toEqual(pool);
    badges.set([]);
    badges.update(screen, placement(new Set([0, 1, 2, 3])));
    expect(shown(badges)).toHaveLength(0);
    badges.dispose();
  });

  it('draws nothing before the markers are set', () => {
    const badges = new MarkerBadges();
    badges.set([{ index: 0, flag: 'failed' }]);
    badges.update(screen, { ...placement(new Set([0])), markers: null });
    expect(shown(badges)).toHaveLength(0);
  });
});

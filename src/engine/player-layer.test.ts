// @vitest-environment jsdom
/** PlayerLayer: the marker at the player's screen point, sized by its scale (the overlay's `scale=`). */
import { describe, expect, it } from 'vitest';
import { PlayerLayer } from './player-layer';

const screen = (x: number, y: number) => ({ x: x + 10, y: y + 20 });

describe('PlayerLayer', () => {
  it('draws at the player, at normal size by default and larger with a scale', () => {
    const normal = new PlayerLayer();
    normal.set({ mapX: 5, mapY: 6, arrowAngle: null }, false, 0);
    normal.update(screen, 0);
    expect(normal.container.visible).toBe(true);
    expect(normal.container.position).toMatchObject({ x: 15, y: 26 });
    expect(normal.container.scale.x).toBe(1);
    const large = new PlayerLayer(2.5);
    large.set({ mapX: 5, mapY: 6, arrowAngle: 90 }, false, 0);
    large.update(screen, 0);
    expect(large.container.scale.x).toBe(2.5);
    expect(large.container.getBounds().width).toBeGreaterThan(normal.container.getBounds().width * 2);
  });
});

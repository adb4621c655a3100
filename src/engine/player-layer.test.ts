// @vitest-environment jsdom
/** PlayerLayer: the marker at the player's screen point, sized by its scale (the overlay's `scale=`). */
import { describe, expect, it } from 'vitest';
import { PING_MS, PlayerLayer, STALE_ALPHA } from './player-layer';

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

  it('a stale marker (a live position that stopped coming) is faded and does not ping; a fresh one pings at full opacity', () => {
    const layer = new PlayerLayer();
    layer.set({ mapX: 5, mapY: 6, arrowAngle: null, stale: true }, true, 0);
    expect(layer.update(screen, 10)).toBe(false);
    expect(layer.container.alpha).toBe(STALE_ALPHA);
    layer.set({ mapX: 7, mapY: 6, arrowAngle: null }, true, 100);
    expect(layer.update(screen, 100 + PING_MS / 2)).toBe(true);
    expect(layer.container.alpha).toBe(1);
    // Turning stale mid-ping stops the ping.
    layer.set({ mapX: 7, mapY: 6, arrowAngle: null, stale: true }, false, 200);
    expect(layer.update(screen, 300)).toBe(false);
    expect(layer.container.alpha).toBe(STALE_ALPHA);
  });
});

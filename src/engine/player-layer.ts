/**
 * The where-am-I marker: a dot at the player's map position, a ping (expanding, fading ring)
 * for 2000 ms after each update with `ping`, and a look arrow rotated to `arrowAngle` degrees
 * (screen angle: 0° points right, +x; positive turns clockwise) when not null. A `stale`
 * marker (a live position that stopped coming, docs/DECISIONS.md "A live position that stops
 * coming") is faded and never pings: it says where the player was, not where they are. With
 * prefers-reduced-motion the engine never asks for the ping (map-engine.ts `setPlayer`): the dot
 * just moves.
 */
import { Container, Graphics } from 'pixi.js';
import type { PlayerMarker } from './types';

/** Spec §9: ping lasts 2000 ms. */
export const PING_MS = 2000;
/** The stale marker's opacity. */
export const STALE_ALPHA = 0.45;
const COLOUR = 0x2f8cff;

/** The marker as this layer takes it: `stale` (optional, default false) fades it and stops its ping. */
export type PlayerLayerMarker = PlayerMarker & { stale?: boolean };

export class PlayerLayer {
  readonly container = new Container({ label: 'player' });
  private readonly dot = new Graphics();
  private readonly arrow = new Graphics();
  private readonly ring = new Graphics();
  private player: PlayerLayerMarker | null = null;
  private pingStart = -Infinity;

  /** `scale`: the marker's size, 1 = normal (the stream overlay draws it larger, with its labels). */
  constructor(scale = 1) {
    this.container.scale.set(scale);
    this.ring.circle(0, 0, 12).stroke({ color: COLOUR, width: 3 });
    this.arrow.poly([10, -7, 26, 0, 10, 7]).fill({ color: COLOUR }).stroke({ color: 0xffffff, width: 1.5 });
    this.dot.circle(0, 0, 8).fill({ color: COLOUR }).stroke({ color: 0xffffff, width: 2.5 });
    this.container.addChild(this.ring, this.arrow, this.dot);
    this.container.visible = false;
  }

  set(player: PlayerLayerMarker | null, ping: boolean, now: number): void {
    if (player && (!Number.isFinite(player.mapX) || !Number.isFinite(player.mapY))) {
      throw new Error(`player position must be finite numbers, got (${player.mapX}, ${player.mapY})`);
    }
    this.player = player ? { ...player } : null;
    if (player?.stale) this.pingStart = -Infinity;
    else if (player && ping) this.pingStart = now;
  }

  get current(): PlayerLayerMarker | null {
    return this.player ? { ...this.player } : null;
  }

  /** Places the marker; true while the ping animation still runs. */
  update(toScreen: (mapX: number, mapY: number) => { x: number; y: number }, now: number): boolean {
    const p = this.player;
    this.container.visible = p !== null;
    if (!p) return false;
    const s = toScreen(p.mapX, p.mapY);
    this.container.position.set(s.x, s.y);
    this.container.alpha = p.stale ? STALE_ALPHA : 1;
    const angle = p.arrowAngle;
    this.arrow.visible = angle !== null && Number.isFinite(angle);
    if (this.arrow.visible) this.arrow.rotation = ((angle as number) * Math.PI) / 180;
    const t = (now - this.pingStart) / PING_MS;
    const pinging = t >= 0 && t < 1;
    this.ring.visible = pinging;
    if (pinging) {
      this.ring.scale.set(1 + 3 * t);
      this.ring.alpha = 1 - t;
    }
    return pinging;
  }

  dispose(): void {
    this.container.destroy({ children: true });
  }
}

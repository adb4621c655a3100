/**
 * The where-am-I position of the open map, in the spec's convention {x, y, z, look}
 * (src/domain/position.ts). `updates` counts every update, so the wiring pings the marker
 * again even when the same position is set twice.
 */
import { proxy } from 'valtio';
import type { PlayerPosition } from '../domain/position';

export interface PlayerState {
  position: PlayerPosition | null;
  updates: number;
}

export const player = proxy<PlayerState>({ position: null, updates: 0 });

/** Sets (or, with null, removes) the where-am-I position. */
export function setPlayerPosition(position: PlayerPosition | null): void {
  player.position = position ? { x: position.x, y: position.y, z: position.z, look: position.look } : null;
  player.updates += 1;
}

/** A copy of the current position, or null. */
export function currentPlayer(): PlayerPosition | null {
  const p = player.position;
  return p ? { x: p.x, y: p.y, z: p.z, look: p.look } : null;
}

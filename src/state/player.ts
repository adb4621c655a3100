/**
 * The where-am-I position of the open map, in the spec's convention {x, y, z, look}
 * (src/domain/position.ts). `updates` counts every update, so the wiring pings the marker
 * again even when the same position is set twice. `located` tells a real position (a
 * recognised name, `#pos=`, the live feed) from the spec's reset after a name that was not
 * recognised: the marker goes to 0, 0, 0 then, but nothing else follows it (no level, no view).
 */
import { proxy } from 'valtio';
import { NO_POSITION, type PlayerPosition } from '../domain/position';

export interface PlayerState {
  position: PlayerPosition | null;
  /** False for the reset position of a name not recognised (spec §5): not where the player is. */
  located: boolean;
  updates: number;
}

export const player = proxy<PlayerState>({ position: null, located: false, updates: 0 });

/** Sets (or, with null, removes) the where-am-I position. */
export function setPlayerPosition(position: PlayerPosition | null): void {
  place(position, position !== null);
}

/**
 * A screenshot name that was not recognised: the position resets to 0, 0, 0 with no look
 * (spec §5), marked as not located, so the level and the view stay as the user left them
 * (height 0 would otherwise pick a level by chance, Underground on customs).
 */
export function resetPlayerPosition(): void {
  place(NO_POSITION, false);
}

function place(position: PlayerPosition | null, located: boolean): void {
  player.position = position ? { x: position.x, y: position.y, z: position.z, look: position.look } : null;
  player.located = located;
  player.updates += 1;
}

/** A copy of the current position, or null. */
export function currentPlayer(): PlayerPosition | null {
  const p = player.position;
  return p ? { x: p.x, y: p.y, z: p.z, look: p.look } : null;
}

/**
 * The live feed's "stale" look for the where-am-I marker (docs/DECISIONS.md "A live position
 * that stops coming"): the state says when the marker shows the feed's position and it is older
 * than PILOT_STALE_MS (state/pilot `pilot.stale`); the engine's PlayerLayer fades a marker with
 * `stale: true` and does not ping it. This joins the two for the player wiring (wirePlayer):
 * `withPilotStale(marker)` before `engine.setPlayer`, and `onPilotStaleChange(redraw)` to redraw
 * (without a ping) when the position turns stale while nothing new comes.
 */
import { subscribe } from 'valtio';
import type { PlayerLayerMarker } from '../../engine/player-layer';
import type { PlayerMarker } from '../../engine/types';
import { pilot } from '../../state/pilot';

/** The marker, stale when the feed's position on it is. */
export function withPilotStale(marker: PlayerMarker): PlayerLayerMarker {
  return pilot.stale ? { ...marker, stale: true } : marker;
}

/** Calls `redraw` each time `pilot.stale` changes; returns the unsubscribe function. */
export function onPilotStaleChange(redraw: () => void): () => void {
  let last = pilot.stale;
  return subscribe(pilot, () => {
    if (pilot.stale === last) return;
    last = pilot.stale;
    redraw();
  });
}

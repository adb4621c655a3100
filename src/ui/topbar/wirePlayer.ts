/**
 * Player position → engine: on every update the where-am-I marker moves (with a 2 s ping),
 * the level follows the height, and when the map is zoomed in beyond its start zoom the view
 * centres on the player (always, with `follow`: the stream overlay). The look arrow shows when the settings in force have it: a pro user
 * with "Look direction arrow" on (role table: lookArrow; map settings: lookArrow).
 */
import { subscribe } from 'valtio';
import { levelForHeight, type MapDefinition } from '../../domain/maps';
import { lookArrowAngle, playerToMap, type PlayerPosition } from '../../domain/position';
import type { MapEngineApi, PlayerMarker } from '../../engine/types';
import { setLevel } from '../../state/mapView';
import { player } from '../../state/player';
import { session } from '../../state/session';
import { effectiveSettings, settings } from '../../state/settings';

/** The engine's where-am-I marker for a position; the arrow only where the user may see it. */
export function playerMarker(position: PlayerPosition, map: Pick<MapDefinition, 'transform'>, showArrow: boolean): PlayerMarker {
  const { mapX, mapY } = playerToMap(position, map);
  return { mapX, mapY, arrowAngle: showArrow ? lookArrowAngle(position.look, map) : null };
}

export interface WirePlayerOptions {
  /** Centre the view on every position, whatever the zoom (the stream overlay). */
  follow?: boolean;
}

/**
 * Subscribes the engine to the player position; returns the unsubscribe function. `onDrawn`
 * hears every marker handed to the engine (the automation surface reports it).
 */
export function wirePlayer(
  engine: MapEngineApi,
  map: MapDefinition,
  onDrawn?: (marker: PlayerMarker | null) => void,
  { follow = false }: WirePlayerOptions = {},
): () => void {
  let lastUpdate = -1;
  /** Whether the marker has its arrow: read afresh at each draw and on each session or settings change. */
  let arrowShown = effectiveSettings().lookArrow;

  const show = (ping: boolean) => {
    const position = player.position;
    arrowShown = effectiveSettings().lookArrow;
    if (!position) {
      engine.setPlayer(null, false);
      onDrawn?.(null);
      return;
    }
    const marker = playerMarker(position, map, arrowShown);
    if (ping) {
      setLevel(levelForHeight(map, position.z));
      if (follow || engine.camera().zoom > map.startZoom) engine.setView({ x: marker.mapX, y: marker.mapY });
    }
    engine.setPlayer(marker, ping);
    onDrawn?.(marker);
  };

  const onPlayer = () => {
    if (player.updates === lastUpdate) return;
    lastUpdate = player.updates;
    show(true);
  };

  if (player.position) onPlayer();
  else lastUpdate = player.updates;
  const offPlayer = subscribe(player, onPlayer);
  // Signing in or out, or switching the arrow in the settings, redraws without a new ping.
  const onArrow = () => {
    const wanted = effectiveSettings().lookArrow;
    if (wanted === arrowShown) return;
    arrowShown = wanted;
    if (player.position) show(false);
  };
  const offSession = subscribe(session, onArrow);
  const offSettings = subscribe(settings, onArrow);
  return () => {
    offPlayer();
    offSession();
    offSettings();
  };
}

/**
 * Player position → engine: on every update the where-am-I marker moves (with a 2 s ping),
 * the level follows the height, and when the map is zoomed in beyond its start zoom the view
 * centres on the player (always, with `follow`: the stream overlay). At or below the start zoom
 * (beyond the spec), a position outside the part of the canvas the user can see is panned into
 * it at the same zoom; one in view moves nothing. The reset after a name that was not recognised
 * (`player.located` false) moves the marker only: no level, no view. The look arrow shows when
 * the settings in force have it: a pro user with "Look direction arrow" on (role table:
 * lookArrow; map settings: lookArrow).
 */
import { subscribe } from 'valtio';
import { onPilotStaleChange, withPilotStale } from '../pilot/stalePlayer';
import { placeInView, type CanvasArea } from '../../domain/keep-in-view';
import { levelForHeight, type MapDefinition } from '../../domain/maps';
import { lookArrowAngle, playerToMap, type PlayerPosition } from '../../domain/position';
import type { MapEngineApi, PlayerMarker } from '../../engine/types';
import { setLevel } from '../../state/mapView';
import { player } from '../../state/player';
import { session } from '../../state/session';
import { effectiveSettings, settings } from '../../state/settings';
import { measureCanvasArea } from '../map/canvasArea';

/** The engine's where-am-I marker for a position; the arrow only where the user may see it. */
export function playerMarker(position: PlayerPosition, map: Pick<MapDefinition, 'transform'>, showArrow: boolean): PlayerMarker {
  const { mapX, mapY } = playerToMap(position, map);
  return { mapX, mapY, arrowAngle: showArrow ? lookArrowAngle(position.look, map) : null };
}

export interface WirePlayerOptions {
  /** Centre the view on every position, whatever the zoom (the stream overlay). */
  follow?: boolean;
  /** The canvas and what covers it, or null when unknown (default: measured in the page). */
  canvasArea?: () => CanvasArea | null;
}

/** The engine's canvas with nothing over it: its size is twice the screen point of the view's centre. */
function bareCanvasArea(engine: MapEngineApi): CanvasArea {
  const { x, y } = engine.camera();
  const centre = engine.toScreen(x, y);
  return { width: 2 * centre.x, height: 2 * centre.y, covers: [] };
}

/**
 * Moves the view for a new position: centred when zoomed in beyond the start zoom (spec) or
 * following; else, beyond the spec, panned at the same zoom so the marker lands in the middle
 * of the visible part of the canvas, only when it is outside it (the user's view is kept otherwise).
 */
function bringIntoView(engine: MapEngineApi, map: MapDefinition, marker: PlayerMarker, follow: boolean, area: CanvasArea | null): void {
  const view = engine.camera();
  if (follow || view.zoom > map.startZoom) {
    engine.setView({ x: marker.mapX, y: marker.mapY });
    return;
  }
  const at = engine.toScreen(marker.mapX, marker.mapY);
  const target = placeInView(at, area ?? bareCanvasArea(engine));
  if (!target) return;
  engine.setView({ x: view.x + (at.x - target.x) / view.zoom, y: view.y + (at.y - target.y) / view.zoom });
}

/**
 * Subscribes the engine to the player position; returns the unsubscribe function. `onDrawn`
 * hears every marker handed to the engine (the automation surface reports it).
 */
export function wirePlayer(
  engine: MapEngineApi,
  map: MapDefinition,
  onDrawn?: (marker: PlayerMarker | null) => void,
  { follow = false, canvasArea = () => measureCanvasArea() }: WirePlayerOptions = {},
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
    if (ping && player.located) {
      setLevel(levelForHeight(map, position.z));
      bringIntoView(engine, map, marker, follow, canvasArea());
    }
    engine.setPlayer(withPilotStale(marker), ping);
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
  // A live position that stops coming fades (and one that comes again is drawn fresh by onPlayer).
  const offStale = onPilotStaleChange(() => {
    if (player.position) show(false);
  });
  return () => {
    offPlayer();
    offSession();
    offSettings();
    offStale();
  };
}

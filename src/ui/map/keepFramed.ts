/**
 * Keeps what the page framed for the visitor in the visible part of the canvas as the page's
 * covers become known or change (docs/DECISIONS.md "A link's target opens in the visible part"):
 * the open popup's marker, else the where-am-I marker. Part of ui/map/wireCoveredInsets.ts, which
 * tells the engine the covers' insets through it.
 *
 * - The page's covers are measured a moment after the engine starts, and a `?obj=` link's marker
 *   or a `#pos=` position is framed before that (ui/popup/wirePopup.ts, ui/topbar/wirePlayer.ts):
 *   the clamp then had no insets and stopped the map at its edge, the target under a panel.
 *   When the covers are first known, the target is framed again with them (the position as
 *   Where am I frames it); measured at wiring when there is one, so before the first frame.
 * - When the covers change (panels shown, the quest panel grown by the quest a link followed, the
 *   top bar wrapped), a target that was in the visible part and is now under a cover is framed
 *   again. Panels hidden pull the map back as before (docs/DECISIONS.md: the clamp counts the page).
 * - A target at the map's very edge cannot be brought clear of a panel by the covers' clamp (it
 *   stops with the map's edge at the panel's): the clamp is let in as far again as it takes
 *   (keep-in-view.ts `reachIntoView`), and that reach is taken back as the user pans the map's
 *   edge back out (`relaxReach`), never pulling the map.
 * - The covers measured again (the fonts in, the quest panel's list loaded) keep such a target in
 *   view: the same insets keep the reach as it is; new ones let it in again with them. Before, the
 *   reach was dropped with the old covers and the clamp pulled a `#pos=` point at the map's corner
 *   back to 24 px from the panel's and the bar's edges (the map's corner at theirs), where nothing
 *   framed it again.
 *
 * Its subscriptions are made after wirePopup's and wirePlayer's (wireEngine wires this last), so
 * it hears of a focus, a popup's marker or a position after they moved the map for it.
 */
import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { inVisiblePart, isInView, placeInView, reachIntoView, relaxReach, showsWhole, type CanvasArea, type ScreenInsets, type ScreenPoint } from '../../domain/keep-in-view';
import { MAPS } from '../../domain/maps';
import { playerToMap } from '../../domain/position';
import type { MapEngineApi } from '../../engine/types';
import { mapView } from '../../state/mapView';
import { player } from '../../state/player';
import { popup } from '../../state/popup';

export type FramingEngine = Pick<MapEngineApi, 'setCoveredInsets' | 'camera' | 'setView' | 'toScreen' | 'on'>;

type MapPoint = { x: number; y: number };

const UNCOVERED: ScreenInsets = { top: 0, right: 0, bottom: 0, left: 0 };

const samePoint = (a: MapPoint | null, b: MapPoint | null) => a !== null && b !== null && a.x === b.x && a.y === b.y;
const sameInsets = (a: ScreenInsets, b: ScreenInsets) => a.top === b.top && a.right === b.right && a.bottom === b.bottom && a.left === b.left;

export function isFramingEngine(engine: Partial<FramingEngine>): engine is FramingEngine {
  return typeof engine.setCoveredInsets === 'function' && typeof engine.camera === 'function' && typeof engine.setView === 'function'
    && typeof engine.toScreen === 'function' && typeof engine.on === 'function';
}

export interface KeepFramed {
  /** Something is framed now (a popup's marker or a position): the covers are worth measuring at once. */
  hasTarget(): boolean;
  /** The page's covers were measured (`area` null: no laid-out canvas) with these insets: told to the engine here. */
  coversChanged(area: CanvasArea | null, insets: ScreenInsets): void;
  dispose(): void;
}

export function keepFramed(engine: FramingEngine): KeepFramed {
  let area: CanvasArea | null = null;
  let measured = false;
  let covered: ScreenInsets = UNCOVERED;
  /** Reach let in beyond the covers for a target at the map's edge; null: the covers' alone. */
  let held: ScreenInsets | null = null;
  let told: ScreenInsets | null = null;
  const tell = () => {
    const next = held ?? covered;
    if (told && sameInsets(told, next)) return;
    told = next;
    engine.setCoveredInsets?.(next);
  };

  const playerPoint = (): MapPoint | null => {
    const map = mapView.mapId ? MAPS[mapView.mapId] : undefined;
    if (!player.position || !player.located || !map) return null;
    const { mapX, mapY } = playerToMap(player.position, map);
    return { x: mapX, y: mapY };
  };
  /** The popup's marker first: it is what the visitor reads about. */
  const target = (): { point: MapPoint; player: boolean } | null => {
    if (popup.anchor) return { point: popup.anchor, player: false };
    const point = playerPoint();
    return point ? { point, player: true } : null;
  };

  const screenOf = (point: MapPoint): ScreenPoint => engine.toScreen(point.x, point.y);
  /** Moves the camera (zoom kept) so that what is at `from` on the canvas comes to `to`. */
  const moveBy = (from: ScreenPoint, to: ScreenPoint) => {
    const view = engine.camera();
    engine.setView({ x: view.x + (from.x - to.x) / view.zoom, y: view.y + (from.y - to.y) / view.zoom });
  };
  /** A target the clamp stopped short of the visible part: the clamp lets it in, and it moves in. */
  const reach = (point: MapPoint) => {
    if (!area) return;
    const at = screenOf(point);
    const next = reachIntoView(at, area, held ?? covered);
    if (!next) return;
    held = next.insets;
    tell();
    moveBy(at, next.to);
  };
  /** Frames the target: a position as Where am I does (the middle of the visible part when out of view), then the reach. */
  const frame = ({ point, player: isPlayer }: { point: MapPoint; player: boolean }) => {
    if (!area) return;
    if (isPlayer) {
      const at = screenOf(point);
      const to = placeInView(at, area);
      if (to) moveBy(at, to);
    }
    reach(point);
  };

  const coversChanged = (next: CanvasArea | null, insets: ScreenInsets) => {
    const before = area;
    const first = !measured;
    const framed = target();
    // Where it was for the visitor before: on the canvas with nothing over it, the first time.
    const wasShown = framed !== null && (before === null || inVisiblePart(screenOf(framed.point), before));
    // Brought into view by a reach, and still there: the covers' change must not take it back out.
    const wasReached = framed !== null && held !== null && before !== null && isInView(screenOf(framed.point), before);
    const same = measured && sameInsets(covered, insets);
    area = next;
    measured = next !== null;
    covered = insets;
    // The same insets (a panel grew within the column it is counted as): the reach stays as it is.
    if (same && wasReached) return;
    held = null;
    tell();
    if (!framed || !area) return;
    if (first || (wasShown && !showsWhole(screenOf(framed.point), area))) frame(framed);
    // A target at the map's edge the reach had brought in: dropped with the old covers, the clamp
    // pulled it back to the panel's or the bar's edge (shown whole, yet 24 px from it); it is let
    // in again with the new ones.
    else if (wasReached) reach(framed.point);
  };

  /** The point of the last focus request (a `?obj=` link, Find a marker): its popup's marker is framed when it shows. */
  let focused: MapPoint | null = null;
  // A marker selected before the engine started came with the address (`?obj=`): nothing else could open it.
  let linkedFirst = mapView.selectedUid !== null && popup.anchor === null;
  const linkedShown = () => {
    const anchor = popup.anchor;
    if (!anchor) return;
    const linked = linkedFirst || samePoint(focused, anchor);
    linkedFirst = false;
    if (!linked) return;
    focused = null;
    reach(anchor);
  };
  let playerUpdates = player.updates;
  const offs = [
    // In sync: wirePopup takes the request (and clears it) as soon as it hears of it.
    subscribeKey(popup, 'focus', (focus) => void (focus && (focused = { x: focus.x, y: focus.y })), true),
    // After wirePopup served it (its popup may show the same marker already).
    subscribeKey(popup, 'focus', linkedShown),
    subscribeKey(popup, 'anchor', linkedShown),
    // A position (Where am I, a live feed) after wirePlayer moved the map for it.
    subscribe(player, () => {
      if (player.updates === playerUpdates) return;
      playerUpdates = player.updates;
      const point = playerPoint();
      if (point) reach(point);
    }),
    engine.on('camerachange', () => {
      if (!held || !area) return;
      const view = engine.camera();
      const middle = engine.toScreen(view.x, view.y);
      const map = mapView.mapId ? MAPS[mapView.mapId] : undefined;
      if (!map) return;
      const topLeft = engine.toScreen(0, 0);
      const bottomRight = engine.toScreen(map.size.width, map.size.height);
      const edges = { top: topLeft.y, left: topLeft.x, right: 2 * middle.x - bottomRight.x, bottom: 2 * middle.y - bottomRight.y };
      held = relaxReach(held, covered, edges);
      tell();
    }),
  ];

  return {
    hasTarget: () => target() !== null || mapView.selectedUid !== null,
    coversChanged,
    dispose: () => offs.forEach((off) => off()),
  };
}

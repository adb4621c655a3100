/**
 * Showing where a followed quest's markers are (docs/DECISIONS.md "Showing a quest's markers"):
 * the quest list's Show button, and the map link of the Quests page, which asks for it once
 * the map is drawn (`requestQuestFrame`, served like popup.focus is). The floor that holds
 * them is selected (domain/quest-frame.ts `floorToShow`: the current one while it holds any)
 * and the camera frames that floor's markers in the visible part of the canvas (not under the
 * top bar, the panels or a phone's sheet: ui/map/canvasArea.ts); on a phone the panels fold
 * away first, as Find a marker's do (openFoundMarker.ts), so the markers are what one sees.
 * Following a quest never moves the camera by itself. Category filters that hide the quest's
 * markers are turned back on first, named with Undo (questFiltersOn.ts): asked to show them,
 * the map showed nothing and said nothing why.
 *
 * The markers live in the markers worker and the camera in the engine: the map page hands
 * both in (`useQuestFraming`). Until it has, nothing is shown and the list offers no Show.
 */
import { useEffect } from 'react';
import { proxy, ref } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { visibleRect } from '../../domain/keep-in-view';
import { getMap, type MapDefinition } from '../../domain/maps';
import type { MarkerKind } from '../../domain/filters-hiding';
import { floorToShow, frameBounds, pointsBounds, type PlacedPoint } from '../../domain/quest-frame';
import type { MapEngineApi } from '../../engine/types';
import { isNarrowWindow, layout, setPanelsShown } from '../../state/layout';
import { mapView, setLevel } from '../../state/mapView';
import { markers } from '../../state/markers';
import type { EngineHandle } from '../map/automation';
import { measureCanvasArea } from '../map/canvasArea';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';
import { forgetQuestFiltersOn, showHiddenQuestMarkers } from './questFiltersOn';

/** What framing needs of the map page. */
export interface QuestFramingHost {
  mapId: string;
  source: MarkerSource;
  /** The engine once it has started (it may start again after a failure), else null. */
  engine(): Pick<MapEngineApi, 'camera' | 'setView'> | null;
}

/** A quest marker's place, and its category and subcategory (the filters that may hide it). */
export type QuestPlace = PlacedPoint & MarkerKind;

export interface QuestFramingState {
  /** The map whose markers and camera can be used now (its page handed them in), or null. */
  mapId: string | null;
  /** Where each asked-for quest's markers are on that map (uid → points), once read. */
  places: Record<string, readonly QuestPlace[]>;
}

/** No places read: a fresh object each time (valtio's `ref` marks it, so none is shared). */
const noPlaces = () => ref({} as Record<string, readonly QuestPlace[]>);

export const questFraming = proxy<QuestFramingState>({ mapId: null, places: noPlaces() });

let host: QuestFramingHost | null = null;
/** The quests a map link asked to show, until the map is drawn. */
let pending: string[] | null = null;
/** The marker count the places were read at: an edit or a live change reads them again. */
let placesAt = -1;

/**
 * Where `find` looks for a quest's markers: a text no label holds (a NUL), so that only the
 * quest named matches (the worker's search answers markers by the quests its query names).
 */
const NO_LABEL = '\u0000';
/** The most markers read per quest (the worker's cap). */
const PLACES_LIMIT = 200;

/** Whatever the filters (a search finds hidden markers too). */
async function readPlaces(source: MarkerSource, uid: string): Promise<QuestPlace[]> {
  const { hits } = await source.find({ text: NO_LABEL, limit: PLACES_LIMIT, quests: [uid], subCategories: [], categories: [] });
  return hits.filter((hit) => hit.questUid === uid).map(({ x, y, level, category, subCategory }) => ({ x, y, level, category, subCategory }));
}

/** Reads (once per marker list) where each quest's markers are; quests read already are not asked again. */
export async function loadQuestPlaces(uids: readonly string[]): Promise<void> {
  const at = host;
  if (!at || markers.status !== 'ready') return;
  if (placesAt !== markers.count) {
    placesAt = markers.count;
    questFraming.places = noPlaces();
  }
  const missing = uids.filter((uid) => !(uid in questFraming.places));
  if (missing.length === 0) return;
  try {
    const read = await Promise.all(missing.map(async (uid) => [uid, await readPlaces(at.source, uid)] as const));
    // Another source was handed in meanwhile (the page's data came again): read from it instead.
    if (host !== at) {
      if (host) await loadQuestPlaces(uids);
      return;
    }
    questFraming.places = ref({ ...questFraming.places, ...Object.fromEntries(read) });
  } catch (error) {
    if (!isWorkerClosed(error)) console.warn('raidmap: the quest markers could not be read', error);
  }
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 16)));
}

/**
 * Shows the quests' markers: selects their floor and frames its markers. 'none' when they have
 * no marker on this map (or it cannot be read), 'unavailable' before the map page handed in
 * its markers and engine.
 */
export async function showQuestMarkers(uids: readonly string[]): Promise<'shown' | 'none' | 'unavailable'> {
  const at = host;
  const map = at ? getMap(at.mapId) : undefined;
  if (!at || !map || !at.engine()) return 'unavailable';
  await loadQuestPlaces(uids);
  if (host !== at) return 'unavailable';
  const points = uids.flatMap((uid) => questFraming.places[uid] ?? []);
  const floor = floorToShow(points, mapView.level);
  if (floor === null) return 'none';
  showHiddenQuestMarkers(points);
  setLevel(floor);
  if (isNarrowWindow() && layout.panelsShown) {
    // The sheet folds away before the visible part is measured (React, then the layout).
    setPanelsShown(false);
    await nextFrame();
    await nextFrame();
  }
  frameOnCamera(map, at, points.filter((p) => p.level === floor));
  return 'shown';
}

function frameOnCamera(map: MapDefinition, at: QuestFramingHost, points: readonly PlacedPoint[]): void {
  const engine = at.engine();
  const bounds = pointsBounds(points);
  const area = measureCanvasArea();
  if (!engine || !bounds || !area) return;
  const next = frameBounds(bounds, visibleRect(area), area, engine.camera(), map.minZoom);
  if (next) engine.setView(next);
}

/** How often, and how long, a waiting request looks for the engine (it starts after the page mounts). */
const WAIT_STEP_MS = 250;
const WAIT_AT_MOST_MS = 60_000;
let waitTimer: ReturnType<typeof setInterval> | undefined;

/** A map link asks to show these quests' markers once the map is drawn (the page may still be loading). */
export function requestQuestFrame(uids: readonly string[]): void {
  pending = uids.length > 0 ? [...uids] : null;
  serve();
  // `ready` and the markers' status are heard; the engine's start is not: looked for while a
  // request waits, and only then (no timer on a map page that asked nothing).
  if (pending && waitTimer === undefined) {
    const until = Date.now() + WAIT_AT_MOST_MS;
    waitTimer = setInterval(() => {
      serve();
      if (!pending || Date.now() > until) stopWaiting();
    }, WAIT_STEP_MS);
  }
}

function stopWaiting(): void {
  clearInterval(waitTimer);
  waitTimer = undefined;
}

function serve(): void {
  if (!pending || !host || !host.engine() || !mapView.ready || mapView.mapId !== host.mapId || markers.status !== 'ready') return;
  const uids = pending;
  pending = null;
  stopWaiting();
  void showQuestMarkers(uids);
}

subscribeKey(mapView, 'ready', serve);
subscribeKey(markers, 'status', serve);

/** The map page hands in its markers and engine; the returned function takes them back. */
export function provideQuestFraming(next: QuestFramingHost): () => void {
  host = next;
  placesAt = -1;
  questFraming.places = noPlaces();
  questFraming.mapId = next.mapId;
  serve();
  return () => {
    if (host !== next) return;
    host = null;
    pending = null;
    questFraming.mapId = null;
    questFraming.places = noPlaces();
    forgetQuestFiltersOn();
  };
}

/**
 * For the map page (MapPage.tsx), next to its engine handle and marker source: the quest list's
 * Show and the Quests page's map link need them. A started engine is looked for when asked.
 */
export function useQuestFraming(map: Pick<MapDefinition, 'id'>, handle: EngineHandle, source: MarkerSource | null): void {
  useEffect(() => {
    if (!source) return;
    // The engine starts after the page mounts: a link's request waits for it (requestQuestFrame).
    return provideQuestFraming({ mapId: map.id, source, engine: () => handle.engine });
  }, [map.id, handle, source]);
}

/** Forgets everything (tests). */
export function resetQuestFraming(): void {
  host = null;
  pending = null;
  stopWaiting();
  placesAt = -1;
  questFraming.mapId = null;
  questFraming.places = noPlaces();
  forgetQuestFiltersOn();
}

/**
 * The wiring between state and the engine: it subscribes to the valtio slices and calls the
 * engine (filters → worker → engine.setFilter, level → engine.setLevel, …), and turns engine
 * events into actions. Nothing else in the UI talks to the engine.
 */
import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { MarkerColumns, MapEngineApi } from '../../engine/types';
import type { MarkerLoadResult } from '../../../workers/markers';
import { i18n, isLanguage } from '../../i18n';
import { filterQuery, filters } from '../../state/filters';
import { MAPS } from '../../domain/maps';
import { mapView, selectMarker, setReady, stepLevelBy } from '../../state/mapView';
import { markStartup } from './startupMarks';
import { questFilterQuery, quests } from '../../state/quests';
import { player } from '../../state/player';
import { session } from '../../state/session';
import { effectiveSettings, settings } from '../../state/settings';
import { wirePlayer } from '../topbar/wirePlayer';
import { wirePopup } from '../popup/wirePopup';
import { wireCoveredInsets, type CoveredInsetsOptions } from './wireCoveredInsets';
import { followInsets } from '../../domain/keep-in-view';
import { keepsGoneMarker } from '../popup/useOpenMarker';
import type { EngineHandle } from './automation';
import type { MarkerSink } from '../../editor/live';
import { setMarkerCounts } from '../../state/markers';
import { markerChanged } from '../../state/popup';
import { isWorkerClosed, type MarkerSource } from './markerSource';

/** Tries at reading labels that fit the engine's slots (see `relabel`). */
const RELABEL_ATTEMPTS = 3;

export interface EngineWiring {
  /** Hands the loaded markers to the engine, filtered by the current filters. */
  setMarkers(result: Pick<MarkerLoadResult, 'columns'>): void;
  /**
   * The page's copy of the markers as the editor and the live feed change it: one marker at a
   * time through the worker (validated, counted) into the engine, with no rebuild.
   */
  readonly sink: MarkerSink;
  dispose(): void;
}

export interface WireOptions {
  engine: MapEngineApi;
  source: MarkerSource;
  handle: EngineHandle;
  /** Runs `fn` after the next frames are drawn (default: two animation frames). */
  afterDraw?: (fn: () => void) => void;
  /** Keep the view centred on the player at any zoom (the stream overlay). */
  followPlayer?: boolean;
  /** How the canvas and its covers are measured and watched (tests; default: in the page). */
  canvasArea?: Pick<CoveredInsetsOptions, 'measure' | 'watch'>;
}

function afterTwoFrames(fn: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(fn, 32);
    return;
  }
  requestAnimationFrame(() => requestAnimationFrame(() => fn()));
}

export function wireEngine({ engine, source, handle, afterDraw = afterTwoFrames, followPlayer = false, canvasArea = {} }: WireOptions): EngineWiring {
  let disposed = false;
  let columns: MarkerColumns | null = null;
  /** uid per engine slot ('' for an emptied one), kept through edits. */
  let slotUids: string[] = [];
  let pending: MarkerColumns | null = null;
  let passing: Uint32Array | null = null;
  let passingUids: Set<string> | null = null;
  let filterSeq = 0;
  /** Per-slot filter answers of edits since the last filter run (see `handle.passing`). */
  const passOverride = new Map<number, boolean>();
  let engineReady = engine.ready;
  let markersDrawn = false;
  const offs: Array<() => void> = [];

  const updateReady = () => {
    if (disposed) return;
    if (engineReady && markersDrawn) markStartup('ready');
    setReady(engineReady && markersDrawn);
  };

  async function applyFilter(): Promise<void> {
    if (!pending && !columns) return;
    const seq = ++filterSeq;
    let indices: Uint32Array;
    try {
      indices = await source.filter({ ...filterQuery(), ...questFilterQuery() });
    } catch (error) {
      if (!disposed && !isWorkerClosed(error)) console.error('raidmap: marker filter failed', error);
      return;
    }
    if (disposed || seq !== filterSeq) return;
    if (pending) {
      columns = pending;
      slotUids = [...columns.uids];
      pending = null;
      engine.setMarkers(columns);
    }
    engine.setFilter(indices);
    passing = indices;
    passOverride.clear();
    passingUids = null;
    if (!markersDrawn) {
      afterDraw(() => {
        markersDrawn = true;
        markStartup('markers-drawn');
        updateReady();
      });
    }
  }

  async function relabel(lang: string): Promise<void> {
    if (!columns || !isLanguage(lang)) return;
    try {
      // A live change can add a slot while the labels are read (a compact list in the new
      // language is fetched first): labels for another count of slots are read again, not
      // dropped, or the map would keep the old language until the next switch.
      for (let attempt = 0; attempt < RELABEL_ATTEMPTS; attempt += 1) {
        const labels = await source.relabel(lang);
        if (disposed || !columns || i18n.language !== lang) return;
        if (labels.length === slotUids.length) {
          engine.setLabels(labels);
          return;
        }
      }
      console.warn('raidmap: the marker labels kept changing while relabelling; they stay as they were');
    } catch (error) {
      if (!disposed && !isWorkerClosed(error)) console.error('raidmap: relabelling markers failed', error);
    }
  }

  // Marker size and labels follow the settings in force (pro); own progress changes the filter.
  let applied = effectiveSettings();
  const applySettings = () => {
    const next = effectiveSettings();
    if (next.markerSize !== applied.markerSize) engine.setMarkerScale(next.markerSize);
    if (next.labels !== applied.labels) engine.setLabelMode(next.labels);
    applied = next;
  };

  engine.setLevel(mapView.level);
  engine.setMarkerScale(applied.markerSize);
  engine.setLabelMode(applied.labels);
  engine.setSelected(mapView.selectedUid);

  offs.push(
    subscribe(filters, () => void applyFilter()),
    subscribeKey(quests, 'selected', () => void applyFilter()),
    subscribeKey(quests, 'list', () => void applyFilter()),
    subscribeKey(mapView, 'level', (level) => engine.setLevel(level)),
    subscribeKey(mapView, 'selectedUid', (uid) => engine.setSelected(uid)),
    subscribe(settings, applySettings),
    subscribe(session, applySettings),
    // Own progress hides the markers of done and hidden quests: the user or the setting changes it.
    subscribeKey(session, 'user', () => void applyFilter()),
    subscribeKey(settings, 'ownProgress', () => void applyFilter()),
    engine.on('ready', () => {
      engineReady = true;
      updateReady();
    }),
    engine.on('markerclick', ({ uid }) => selectMarker(uid)),
    engine.on('mapclick', () => selectMarker(null)),
    engine.on('levelstep', ({ direction }) => stepLevelBy(direction)),
  );
  // The stream overlay follows the player to the map's very corners (followInsets); a map page
  // keeps the map under its covers. The overlay's insets are set before the player is wired (and
  // measured at once), so that the first view, centred on the feed's last position, is not
  // clamped as a map page's; when they change (the overlay's window resized) the view is centred
  // on the player again, as the clamp may have moved it.
  if (followPlayer) {
    const following: Pick<MapEngineApi, 'setCoveredInsets'> = {
      setCoveredInsets: (insets, from) => {
        engine.setCoveredInsets?.(insets, from);
        const marker = handle.playerMarker;
        if (marker && player.located) engine.setView({ x: marker.mapX, y: marker.mapY });
      },
    };
    offs.push(wireCoveredInsets(following, { ...canvasArea, insets: followInsets, immediate: true }));
  }
  if (mapView.mapId) offs.push(wirePlayer(engine, MAPS[mapView.mapId], (marker) => (handle.playerMarker = marker), { follow: followPlayer }));
  offs.push(wirePopup(engine));
  if (!followPlayer) offs.push(wireCoveredInsets(engine, canvasArea));
  const onLanguage = (lang: string) => void relabel(lang);
  i18n.on('languageChanged', onLanguage);
  offs.push(() => i18n.off('languageChanged', onLanguage));

  // Edits land one marker at a time with whether it passes the filter in force (the worker
  // answers that with the upsert): the engine patches that one slot, and `passing` is the last
  // filter's list with these per-slot answers on top, until the next filter run replaces both.
  // No whole-list filter round trip per edit (10,000 indices through the worker and the engine).
  handle.passing = () => {
    if (!columns || !passing) return null;
    if (!passingUids) {
      const uids = slotUids;
      const set = new Set<string>();
      for (const i of passing) {
        const uid = uids[i];
        if (uid && passOverride.get(i) !== false) set.add(uid);
      }
      for (const [i, passes] of passOverride) {
        const uid = uids[i];
        if (passes && uid) set.add(uid);
      }
      passingUids = set;
    }
    return passingUids;
  };

  const sink: MarkerSink = {
    get: (uid) => source.get(uid),
    async upsert(marker) {
      const lang = isLanguage(i18n.language) ? i18n.language : 'en';
      const result = await source.upsert(marker, lang);
      if (disposed || !columns) return;
      engine.upsertMarker(result.index, result.row, result.passes);
      slotUids[result.index] = result.row.uid;
      passingUids = null;
      passOverride.set(result.index, result.passes);
      setMarkerCounts(result.counts);
      markerChanged(marker.uid);
    },
    async remove(uid) {
      const result = await source.remove(uid);
      if (disposed || !columns || !result) return;
      engine.removeMarker(result.index);
      slotUids[result.index] = '';
      passingUids = null;
      passOverride.set(result.index, false);
      setMarkerCounts(result.counts);
      // Its popup closes, unless it keeps the marker (open in the edit form, or a conflict about
      // this delete waits: another admin deleted it, and the admin chooses there).
      if (mapView.selectedUid === uid) {
        if (keepsGoneMarker(uid)) markerChanged(uid);
        else selectMarker(null);
      }
    },
  };

  return {
    sink,
    setMarkers(result) {
      if (disposed) return;
      pending = result.columns;
      void applyFilter();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      offs.forEach((off) => off());
      handle.passing = null;
      handle.playerMarker = null;
      setReady(false);
    },
  };
}

/**
 * Loads what the map page needs, in parallel: the tile manifest and the marker list (bytes
 * straight into the worker). Failures become one readable message, never a crash.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, isAbort } from '../../api/client';
import { fetchCompactMarkers } from '../../api/markers';
import { fetchTileManifest } from '../../api/tiles';
import type { MapId } from '../../domain/maps';
import type { TileManifest } from '../../domain/tiles';
import type { MarkerLoadResult } from '../../../workers/markers';
import { currentLanguage, i18n } from '../../i18n';
import { filterQuery, loadFilters } from '../../state/filters';
import { closeMap, openMap } from '../../state/mapView';
import { markersFailed, markersLoaded, markersLoading, resetMarkers } from '../../state/markers';
import { questFilterQuery } from '../../state/quests';
import { takeEarlyCompact, takeEarlyManifest, takeEarlyMarkers } from './earlyLoad';
import { markStartup } from './startupMarks';
import { createMarkerSource, type MarkerSource } from './markerSource';

/**
 * Why loading failed, as a translation key and its values: the page says it at render, so the
 * message follows an EN↔RU switch (text translated when the failure came would stay in the old
 * language).
 */
export interface MapLoadError {
  key: 'map.errorOffline' | 'map.errorServer' | 'map.errorMarkers' | 'map.errorArt' | 'map.errorEngine';
  values?: { message: string };
}

export interface MapData {
  manifest: TileManifest | null;
  markers: MarkerLoadResult | null;
  source: MarkerSource | null;
  /** What to tell the visitor (MapPage translates it), or null. */
  error: MapLoadError | null;
}

const EMPTY: MapData = { manifest: null, markers: null, source: null, error: null };

/** What to tell the visitor about why loading failed. */
export function describeLoadError(error: unknown): MapLoadError {
  if (error instanceof ApiError) {
    return error.offline ? { key: 'map.errorOffline' } : { key: 'map.errorServer', values: { message: error.message } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { key: 'map.errorMarkers', values: { message } };
}

/**
 * A message for the visitor about a tile manifest that failed: the map's art (its drawing or
 * map.json) cannot be shown. The server's own words are for its operator (its log), never
 * shown: they are English and may name its files.
 */
export function describeManifestError(error: unknown): MapLoadError {
  if (error instanceof ApiError && !error.offline) return { key: 'map.errorArt' };
  return describeLoadError(error);
}

/** Warns once per load about markers dropped for bad data, with the first few reasons. */
export function reportMarkerIssues(mapId: string, result: Pick<MarkerLoadResult, 'issues' | 'sampleIssues'>): void {
  if (result.issues === 0) return;
  const reasons = result.sampleIssues.map((i) => `#${i.index}${i.uid ? ` (${i.uid})` : ''}: ${i.message}`);
  console.warn(`raidmap: ${result.issues} marker(s) of ${mapId} skipped for invalid data; first: ${reasons.join(' | ')}`);
}

export function useMapData(mapId: MapId, attempt: number): MapData & { fail: (error: MapLoadError) => void } {
  const [data, setData] = useState<MapData>(EMPTY);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const lang = currentLanguage();
    // The worker started before React's first render, already parsing the list (earlyLoad.ts).
    const started = takeEarlyMarkers(mapId, lang);
    let source: MarkerSource;
    try {
      source = started?.source ?? createMarkerSource();
    } catch (error) {
      setData({ ...EMPTY, error: describeLoadError(error) });
      return;
    }
    markStartup('page-mounted');
    openMap(mapId);
    loadFilters(mapId);
    markersLoading();
    setData({ ...EMPTY, source });

    const fail = (error: unknown, describe = describeLoadError) => {
      if (signal.aborted || isAbort(error)) return;
      const described = describe(error);
      // The store's copy is shown nowhere (the page says data.error); text for a log or a test.
      markersFailed(i18n.t(described.key, described.values));
      setData((d) => (d.error ? d : { ...d, error: described }));
    };

    (takeEarlyManifest(mapId) ?? fetchTileManifest(mapId, signal))
      .then((manifest) => {
        if (!signal.aborted) setData((d) => ({ ...d, manifest }));
      })
      .catch((error: unknown) => fail(error, describeManifestError));

    // The compact list (issue 11): what the map draws; a marker's full record comes with its popup.
    const loaded =
      started?.loaded ?? (takeEarlyCompact(mapId, lang) ?? fetchCompactMarkers(mapId, lang, signal)).then((buffer) => source.load(buffer, mapId, lang));
    loaded
      .then((result) => {
        if (signal.aborted) return;
        markStartup('markers-parsed');
        // The engine's first filter, asked for while the engine may still be starting.
        source.prefilter({ ...filterQuery(), ...questFilterQuery() });
        reportMarkerIssues(mapId, result);
        markersLoaded(result);
        setData((d) => ({ ...d, markers: result }));
      })
      .catch(fail);

    return () => {
      controller.abort();
      source.dispose();
      closeMap();
      resetMarkers();
    };
  }, [mapId, attempt]);

  const fail = useCallback((error: MapLoadError) => setData((d) => ({ ...d, error })), []);
  return { ...data, fail };
}

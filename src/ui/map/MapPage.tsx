import { Suspense, lazy, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { getMap, type MapDefinition } from '../../domain/maps';
import { parseOverlayParams, type OverlayParams } from '../../domain/overlay';
import { mapView } from '../../state/mapView';
import { NotFoundPage } from '../pages/NotFoundPage';
import { MarkerPopup } from '../popup/MarkerPopup';
import { MapPanels } from '../panels/MapPanels';
import { TopBar } from '../topbar/TopBar';
import { useDocumentTitle } from '../useDocumentTitle';
import { createEngineHandle, installMapAutomation } from './automation';
import { loadEngineModule } from './engineModule';
import { MapCanvas } from './MapCanvas';
import { useMapData } from './useMapData';
import { adoptPoster, dismissPoster } from './poster';
import { useEngineCamera } from './useEngineCamera';
import { useRememberedView } from './useRememberedView';
import { useQuestFraming } from '../panels/questFraming';
import { KeptForAdminNotice } from '../admin/KeptForAdminNotice';
import { useAdminTools } from '../admin/useAdmin';
import { usePilotConnection } from '../pilot/usePilotConnection';
import { useOverlayDocument } from '../overlay/useOverlayDocument';
import { OverlayNote } from '../overlay/OverlayNote';
import { LiveAnnouncer } from '../LiveAnnouncer';
import { SkipLinks } from './SkipLinks';
import { MapZoomControls } from './ZoomControls';

/** The admin's tools, status bar and point history: a chunk of their own, loaded only for admins. */
const AdminDock = lazy(() => import('../admin/AdminDock').then((module) => ({ default: module.AdminDock })));

/**
 * Route `/map/:mapId`: the map full-window, or the not-found page for an unknown id. With
 * `?overlay=1` it is the stream overlay (src/domain/overlay.ts): the map alone on a see-through
 * page, following the player; no top bar, panels, popups or status.
 */
export function MapPage() {
  const { mapId = '' } = useParams();
  const { search } = useLocation();
  const parsed = parseOverlayParams(search);
  const [isOverlay, zoom, scale] = [parsed !== null, parsed?.zoom ?? null, parsed?.scale ?? 1];
  // One object per set of parameters (the query changes when ?connection= is taken out).
  const overlay = useMemo<OverlayParams | null>(() => (isOverlay ? { zoom, scale } : null), [isOverlay, zoom, scale]);
  const map = getMap(mapId);
  if (!map) return <NotFoundPage unknownMap={mapId} />;
  return <MapScreen key={map.id} map={map} overlay={overlay} />;
}

function MapScreen({ map, overlay }: { map: MapDefinition; overlay: OverlayParams | null }) {
  const { t } = useTranslation();
  const name = t(`maps.${map.id}`, { defaultValue: map.name });
  useDocumentTitle(t('title.map', { name }));
  usePilotConnection(map.id);
  useOverlayDocument(overlay !== null);

  const [attempt, setAttempt] = useState(0);
  const data = useMapData(map.id, attempt);
  const { ready } = useSnapshot(mapView);
  const [handle] = useState(createEngineHandle);
  // After useMapData: its openMap picks the default level, which a remembered one replaces.
  const { movesView } = useRememberedView(map, handle, overlay === null);
  useEffect(() => installMapAutomation(map.id, handle), [map.id, handle]);
  // A quest's markers framed on request (its Show button, the Quests page's map link).
  useQuestFraming(map, handle, overlay || data.error ? null : data.source);
  useEffect(() => {
    // Start loading the engine chunk now, while the manifest and markers are fetched.
    loadEngineModule().catch(() => undefined);
  }, []);

  const { fail } = data;
  const onEngineError = useCallback(
    (error: unknown) => fail({ key: 'map.errorEngine', values: { message: error instanceof Error ? error.message : String(error) } }),
    [fail],
  );

  const admin = useAdminTools() && !overlay;
  const camera = useEngineCamera(handle, admin);
  const loading = !data.error && !ready;
  return (
    <div className={overlay ? 'map-page map-page--overlay' : 'map-page'}>
      {/* First in the page: the first Tab stops (SkipLinks.tsx). */}
      {!overlay && <SkipLinks admin={admin} />}
      {/*
        The page's main landmark: the map (its canvas, poster, loading line, failure). The top bar
        is the banner, the panels are asides; the marker popup is a dialog of its own. No box of
        its own: what it holds is placed on the page, as before (docs/DECISIONS.md "Landmarks").
      */}
      <main className="map-page__main">
        {data.manifest && data.source && !data.error && (
          <MapCanvas
            map={map}
            manifest={data.manifest}
            source={data.source}
            markers={data.markers}
            handle={handle}
            onError={onEngineError}
            overlay={overlay}
          />
        )}
        {overlay && <OverlayNote />}
        {!overlay && <PosterSlot map={map} failed={data.error !== null} movedAway={movesView} />}
        {loading && !overlay && (
          <div className="map-status" role="status">
            <span className="spinner" aria-hidden="true" />
            {data.manifest && !data.markers ? t('map.loadingMarkers') : t('map.loading')}
          </div>
        )}
        {data.error && (
          <div className="map-error" role="alert">
            <h2>{t('map.errorHeading')}</h2>
            {/* Translated here, not when it failed: it follows a language switch like the heading. */}
            <p>{t(data.error.key, data.error.values)}</p>
            <div className="map-error__actions">
              <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
                {t('map.retry')}
              </button>
              <Link to="/" className="button button--ghost">
                {t('site.home')}
              </Link>
            </div>
          </div>
        )}
      </main>
      {!overlay && <TopBar title={name} />}
      {!overlay && <MapPanels map={map} source={data.error ? null : data.source} />}
      {!overlay && <MarkerPopup map={map} source={data.source} loaded={!!data.markers && !data.error} />}
      {!overlay && <LiveAnnouncer />}
      {/* For everyone: the admin's changes an ended session refused, kept after a non-admin signed in. */}
      {!overlay && <KeptForAdminNotice mapId={map.id} />}
      {admin && (
        <Suspense fallback={null}>
          <AdminDock map={map} camera={camera} />
        </Suspense>
      )}
      {/* Last in the page's order: the map's own + and − keys come first for a keyboard (ZoomControls.tsx). */}
      {!overlay && <MapZoomControls limits={map} handle={handle} />}
    </div>
  );
}

/**
 * Where the poster of the first view sits while the engine starts (src/ui/map/poster.ts): above
 * the canvas, under the bars and panels. Taken in before the first paint of the page; the poster
 * goes with the page, when the map failed to load, or when another level is chosen (it shows the
 * default level's floors), or at once when the page opens at a remembered camera (`movedAway`:
 * the poster shows the default view, not that one).
 */
function PosterSlot({ map, failed, movedAway }: { map: MapDefinition; failed: boolean; movedAway: boolean }) {
  const mapId = map.id;
  const slot = useRef<HTMLDivElement>(null);
  const { mapId: openMapId, level } = useSnapshot(mapView);
  useLayoutEffect(() => {
    const element = slot.current;
    if (!element) return;
    adoptPoster(mapId, element);
    return () => {
      // StrictMode runs this and the effect again on the same element: gone only with the page.
      setTimeout(() => {
        if (!element.isConnected) dismissPoster();
      }, 0);
    };
  }, [mapId]);
  useEffect(() => {
    if (failed) dismissPoster();
  }, [failed]);
  useEffect(() => {
    if (movedAway) dismissPoster({ fade: true });
  }, [movedAway]);
  useEffect(() => {
    if (openMapId === mapId && level !== map.defaultLevel) dismissPoster({ fade: true });
  }, [openMapId, mapId, level, map.defaultLevel]);
  return <div ref={slot} className="map-poster-slot" />;
}

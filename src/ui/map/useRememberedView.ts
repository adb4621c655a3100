/**
 * The map page's level and camera kept for a reload of the tab (docs/DECISIONS.md "A reload
 * keeps the map view"; the followed quests are useQuestUrl's): brought back when the page
 * opens, unless its first address says where to look (`?obj=`, `#pos=`: domain
 * `viewToRestore`), and remembered as they change. The camera changes every frame while the
 * map is panned: it is written once it has been still for a moment, when the tab is hidden or
 * closed (pagehide), and when the page goes; never per frame.
 *
 * The engine starts after the page mounts (MapCanvas fills the handle in): it is looked for once
 * a frame until it is there, then a few times a second, as Try again or a failed render worker
 * starts another one, which starts at the remembered camera too.
 *
 * Not for the stream overlay (`enabled` false): it follows the player and remembers nothing.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { addressIntent, viewToRestore, type RememberedCamera, type RememberedView } from '../../domain/map-view-memory';
import type { MapDefinition } from '../../domain/maps';
import type { MapEngineApi } from '../../engine/types';
import { mapView, setLevel } from '../../state/mapView';
import { rememberedView, rememberView } from '../../state/viewMemory';
import type { EngineHandle } from './automation';

/** How long the camera must be still before it is written (ms). */
export const CAMERA_IDLE_MS = 400;
/** How often a replaced engine is looked for once the first one is there (ms). */
const ENGINE_CHECK_MS = 250;

function nextFrame(fn: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(fn);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(fn, 16);
  return () => clearTimeout(id);
}

export interface RememberedViewResult {
  /** The page opens at a remembered camera: the poster of the default view is not what it shows. */
  movesView: boolean;
}

export function useRememberedView(map: MapDefinition, handle: EngineHandle, enabled: boolean): RememberedViewResult {
  const { search, hash } = useLocation();
  // The first address decides (usePosHash takes `#pos=` out of it at once, useObjUrl `obj` later).
  const [plan] = useState<RememberedView>(() => (enabled ? viewToRestore(rememberedView(map), addressIntent(search, hash)) : {}));

  useEffect(() => {
    if (!enabled) return;
    const offs: Array<() => void> = [];

    // The level: useMapData's openMap (an effect of the same page, run before this one) chose
    // the default level; the remembered one replaces it. Try again opens the map once more:
    // the level this page remembered then comes back too.
    if (plan.level !== undefined && mapView.mapId === map.id) setLevel(plan.level);
    let lastLevel = mapView.level;
    let reopened = false;
    offs.push(
      // In sync: closeMap and openMap in one go leave mapId as it was by the time a batch is told.
      subscribeKey(mapView, 'mapId', (id) => void (reopened ||= id === map.id), true),
      subscribe(mapView, () => {
        if (mapView.mapId !== map.id) return;
        if (reopened) {
          reopened = false;
          lastLevel = mapView.level;
          const { level } = rememberedView(map);
          if (level !== undefined) setLevel(level);
        } else if (mapView.level !== lastLevel) {
          lastLevel = mapView.level;
          rememberView(map, { level: lastLevel });
        }
      }),
    );

    // The camera.
    let engine: MapEngineApi | null = null;
    let firstEngine = true;
    let pending: RememberedCamera | null = null;
    let changedAt = 0;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let offCamera: (() => void) | null = null;
    const flush = () => {
      clearTimeout(idleTimer);
      idleTimer = undefined;
      if (!pending) return;
      rememberView(map, { camera: pending });
      pending = null;
    };
    const whenIdle = () => {
      const wait = changedAt + CAMERA_IDLE_MS - Date.now();
      if (wait > 0) idleTimer = setTimeout(whenIdle, wait);
      else flush();
    };
    const attach = (next: MapEngineApi | null) => {
      offCamera?.();
      offCamera = null;
      flush();
      engine = next;
      if (!next) return;
      const camera = firstEngine ? plan.camera : rememberedView(map).camera;
      firstEngine = false;
      if (camera) next.setView({ x: camera.x, y: camera.y, zoom: camera.zoom });
      offCamera = next.on('camerachange', (view) => {
        pending = { x: view.x, y: view.y, zoom: view.zoom };
        changedAt = Date.now();
        // One timer per gesture, not one per frame: it waits on while the camera keeps moving.
        idleTimer ??= setTimeout(whenIdle, CAMERA_IDLE_MS);
      });
    };
    const check = () => {
      if (handle.engine !== engine) attach(handle.engine);
    };
    let cancelFrame = () => undefined as void;
    let interval: ReturnType<typeof setInterval> | undefined;
    const waitForEngine = () => {
      check();
      if (engine) interval = setInterval(check, ENGINE_CHECK_MS);
      else cancelFrame = nextFrame(waitForEngine);
    };
    waitForEngine();

    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    offs.push(() => {
      cancelFrame();
      clearInterval(interval);
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
      offCamera?.();
      flush();
    });
    return () => offs.forEach((off) => off());
  }, [map, handle, enabled, plan]);

  return { movesView: plan.camera !== undefined };
}

/**
 * The one React ⇄ engine touchpoint: mounts the PixiJS engine into a div, wires it to state,
 * and disposes both on unmount. Safe under StrictMode's double effects: an engine that finishes
 * starting after its effect was cleaned up is disposed at once.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapDefinition } from '../../domain/maps';
import { overlayZoom, type OverlayParams } from '../../domain/overlay';
import type { TileManifest } from '../../domain/tiles';
import type { MapEngineApi } from '../../engine/types';
import type { MarkerLoadResult } from '../../../workers/markers';
import { iconAtlasUrl, iconUrl } from '../../api/icons';
import { tileBase } from '../../api/tiles';
import type { EngineHandle } from './automation';
import { loadEngineModule } from './engineModule';
import { dismissPoster } from './poster';
import type { MarkerSource } from './markerSource';
import { type EngineWiring, wireEngine } from './wireEngine';
import { wireMapKeyboard } from './mapKeyboard';
import { wireEditor } from './wireEditor';
import { markStartup } from './startupMarks';
import { takeEarlyRender, takeEarlyTiles } from './earlyLoad';
import { fetchCompactMarkers } from '../../api/markers';
import { currentLanguage } from '../../i18n';
import { markersLoaded } from '../../state/markers';
import { reloadMarkers } from '../../state/editor';

export interface MapCanvasProps {
  map: MapDefinition;
  manifest: TileManifest;
  source: MarkerSource;
  /** The loaded markers, or null while they load. */
  markers: MarkerLoadResult | null;
  handle: EngineHandle;
  onError: (error: unknown) => void;
  /**
   * The stream overlay (`?overlay=1`): a see-through canvas, larger labels, and the view kept
   * at the overlay's zoom, centred on the player. Null for the normal page.
   */
  overlay?: OverlayParams | null;
}

/**
 * The poster of the first view (poster.ts) fades out once the engine's picture is complete
 * (ready: tiles and markers drawn), or as soon as the view moves away from it.
 */
function dismissPosterWith(engine: MapEngineApi): () => void {
  if (engine.ready) {
    dismissPoster({ fade: true });
    return () => undefined;
  }
  const first = engine.camera();
  const unwire = () => offs.forEach((off) => off());
  // Once gone, the listeners go too: the camera's changes are not the poster's business any more.
  const dismiss = () => {
    dismissPoster({ fade: true });
    unwire();
  };
  const offs = [
    engine.on('ready', dismiss),
    engine.on('camerachange', (view) => {
      if (view.x !== first.x || view.y !== first.y || view.zoom !== first.zoom) dismiss();
    }),
  ];
  return unwire;
}

export function MapCanvas({ map, manifest, source, markers, handle, onError, overlay = null }: MapCanvasProps) {
  const { t } = useTranslation();
  const hostRef = useRef<HTMLDivElement>(null);
  const wiringRef = useRef<EngineWiring | null>(null);
  const markersRef = useRef(markers);
  const onErrorRef = useRef(onError);
  // Bumped to start the engine again: once, by itself, after a render worker failed before the
  // map was drawn (that tab's next engine draws on the main thread).
  const [start, setStart] = useState(0);
  const restartedRef = useRef(false);
  useEffect(() => {
    markersRef.current = markers;
    onErrorRef.current = onError;
  });

  const transparent = overlay !== null;
  const labelScale = overlay?.scale ?? 1;
  const followZoom = overlay ? overlayZoom(overlay, map) : null;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let cancelled = false;
    let engine: MapEngineApi | null = null;
    let wiring: EngineWiring | null = null;
    let unwireEditor: (() => void) | null = null;
    let unwirePoster: (() => void) | null = null;
    let unwireFailed: (() => void) | null = null;
    let unwireKeyboard: (() => void) | null = null;

    // After a break in the live feed, changes may have been missed: read the whole list again.
    // The editor's unsaved and in-flight changes go back on top of it (reloadMarkers), issued
    // after setMarkers, so the worker answers the engine's filter of the new list first.
    const resync = () =>
      reloadMarkers(async () => {
        const lang = currentLanguage();
        const buffer = await fetchCompactMarkers(map.id, lang);
        const result = await source.load(buffer, map.id, lang);
        if (cancelled || !wiring) return false;
        markersLoaded(result);
        wiring.setMarkers(result);
        return true;
      });

    loadEngineModule()
      .then(async ({ createMapEngine, tools }) => {
        markStartup('engine-module');
        if (cancelled) return null;
        const created = await createMapEngine({
          container: host,
          map,
          manifest,
          tileBase: tileBase(),
          earlyTiles: takeEarlyTiles(map.id),
          earlyRender: takeEarlyRender(map.id),
          iconUrl,
          iconAtlasUrl: iconAtlasUrl(),
          tools: [tools.panTool],
          ...(transparent ? { transparent, labelScale } : {}),
        });
        markStartup('engine-started');
        return { created, adminTools: tools.ADMIN_TOOLS };
      })
      .then((started) => {
        if (!started) return;
        const { created, adminTools } = started;
        if (cancelled) {
          created.dispose();
          return;
        }
        engine = created;
        handle.engine = created;
        handle.host = host;
        // The overlay's zoom first, so the player is then centred at it.
        if (followZoom !== null) created.setView({ zoom: followZoom });
        wiring = wireEngine({ engine: created, source, handle, followPlayer: followZoom !== null });
        wiringRef.current = wiring;
        if (markersRef.current) wiring.setMarkers(markersRef.current);
        // What the admin just placed, copied or moved stays drawn whatever the thinning (MarkerSink.keep).
        const editorSink = { ...wiring.sink, keep: (uid: string) => created.keepDrawn?.(uid) };
        unwireEditor = wireEditor({ engine: created, sink: editorSink, map, adminTools, resync });
        unwirePoster = dismissPosterWith(created);
        // The stream overlay takes no input; the page's map is a Tab stop with its keys.
        if (!transparent) unwireKeyboard = wireMapKeyboard(host, created);
        // A render worker that fails before the map is drawn: draw on the main thread at once,
        // rather than show an error the visitor did nothing about. Later (or a lost context):
        // the page says so, and its "Try again" starts another engine.
        unwireFailed = created.on('failed', ({ message, cause }) => {
          if (cancelled) return;
          if (cause === 'worker' && !created.ready && !restartedRef.current) {
            restartedRef.current = true;
            console.warn(`raidmap: drawing the map on the main thread: ${message}`);
            setStart((n) => n + 1);
            return;
          }
          onErrorRef.current(new Error(message));
        });
      })
      .catch((error: unknown) => {
        if (!cancelled) onErrorRef.current(error);
      });

    return () => {
      cancelled = true;
      unwirePoster?.();
      unwireFailed?.();
      unwireKeyboard?.();
      unwireEditor?.();
      wiring?.dispose();
      engine?.dispose();
      if (handle.engine === engine) {
        handle.engine = null;
        handle.host = null;
      }
      wiringRef.current = null;
    };
  }, [map, manifest, source, handle, transparent, labelScale, followZoom, start]);

  useEffect(() => {
    if (markers) wiringRef.current?.setMarkers(markers);
  }, [markers]);

  const hintId = useId();
  return (
    <>
      <div
        ref={hostRef}
        className="map-canvas"
        role="application"
        aria-label={t('map.canvasLabel', { name: t(`maps.${map.id}`, { defaultValue: map.name }) })}
        aria-describedby={overlay ? undefined : hintId}
      />
      {!overlay && (
        <p id={hintId} className="visually-hidden">
          {t('map.keyboardHint')}
        </p>
      )}
    </>
  );
}

/**
 * The map's zoom buttons: + over −, in the bottom-right corner of the map's visible part, clear of
 * the panels, the admin dock and the marker popup (zoomControls.ts). For everyone, on every screen:
 * a finger's one-tap way to zoom out (a pinch is the only other), a mouse's without a wheel, a
 * screen reader's. A press is the focused map's + or − key (mapKeyboard.ts): the same step about
 * the middle of the visible part, at once, no animation (the keys have none, so reduced motion
 * changes nothing). At the map's limit a button says it is unavailable (aria-disabled) but keeps
 * the focus: pressed there with Enter or a tap, it does nothing rather than drop the focus to
 * the page (docs/DECISIONS.md "Zoom buttons on the map"). Not on the stream overlay (MapPage.tsx).
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAfterMapDrawn } from '../useAfterMapDrawn';
import type { MapEngineApi } from '../../engine/types';
import type { EngineHandle } from './automation';
import { measureCanvasArea } from './canvasArea';
import { visibleMiddle } from './mapKeyboard';
import { canZoom, measureZoomControlsPlace, watchZoomControlsPlace, zoomStep, type ZoomDirection, type ZoomLimits } from './zoomControls';
import './zoom-controls.css';

/** How often a started or replaced engine is looked for (ms): the page's Try again starts another. */
const ENGINE_CHECK_MS = 250;

/** The engine the handle holds now, looked for a few times a second (MapCanvas fills it in once started). */
function useHandleEngine(handle: EngineHandle): MapEngineApi | null {
  const [engine, setEngine] = useState<MapEngineApi | null>(handle.engine);
  useEffect(() => {
    const check = () => setEngine(handle.engine);
    check();
    const timer = setInterval(check, ENGINE_CHECK_MS);
    return () => clearInterval(timer);
  }, [handle]);
  return engine;
}

interface Possible {
  in: boolean;
  out: boolean;
}

function possibleAt(engine: MapEngineApi, limits: ZoomLimits): Possible {
  const { zoom } = engine.camera();
  return { in: canZoom(zoom, 'in', limits), out: canZoom(zoom, 'out', limits) };
}

export interface ZoomControlsProps {
  /** The map's zoom limits (its definition: maps.ts). */
  limits: ZoomLimits;
  handle: EngineHandle;
}

/**
 * The map page's zoom buttons, once the map has drawn its first view: not needed to see the map,
 * so their render, their first measurement (a layout) and their watchers stay out of the busy
 * start, as the quest list's rows do (ui/useAfterMapDrawn.ts).
 */
export function MapZoomControls(props: ZoomControlsProps) {
  const drawn = useAfterMapDrawn();
  return drawn ? <ZoomControls {...props} /> : null;
}

export function ZoomControls({ limits, handle }: ZoomControlsProps) {
  const { t } = useTranslation();
  const engine = useHandleEngine(handle);
  const { minZoom, maxZoom } = limits;
  const [possible, setPossible] = useState<Possible>({ in: true, out: true });
  const group = useRef<HTMLDivElement>(null);

  // Which steps are possible, after every move of the camera (a pinch, the wheel, a link's framing).
  useEffect(() => {
    if (!engine) return;
    const read = () => {
      const next = possibleAt(engine, { minZoom, maxZoom });
      // The same object while nothing changed: no render per frame of a pan.
      setPossible((was) => (was.in === next.in && was.out === next.out ? was : next));
    };
    read();
    return engine.on('camerachange', read);
  }, [engine, minZoom, maxZoom]);

  // The place: measured after each layout that may have moved it, never per frame.
  useLayoutEffect(() => {
    const element = group.current;
    if (!element) return;
    const place = () => {
      const box = element.getBoundingClientRect();
      const at = measureZoomControlsPlace({ width: box.width, height: box.height }, element.ownerDocument);
      if (!at) return;
      // Where the corner is the screen's, out of a phone's rounded corner or notch (safe area) too.
      element.style.right = `max(${at.right}px, calc(10px + var(--safe-right)))`;
      element.style.bottom = `max(${at.bottom}px, calc(10px + var(--safe-bottom)))`;
    };
    place();
    return watchZoomControlsPlace(place, element.ownerDocument);
  }, [engine]);

  if (!engine) return null;

  const press = (direction: ZoomDirection) => {
    const current = handle.engine;
    if (!current) return;
    const next = zoomStep(current.camera(), direction, { minZoom, maxZoom }, visibleMiddle(measureCanvasArea()));
    if (!next) return;
    current.setView(next);
    // At once, not at the engine's next frame: a press that reached the limit disables its button now.
    setPossible(possibleAt(current, { minZoom, maxZoom }));
  };

  return (
    <div ref={group} className="zoom-controls" role="group" aria-label={t('map.zoomControls')}>
      <ZoomButton label={t('map.zoomIn')} possible={possible.in} onPress={() => press('in')}>
        <path d="M8 2v12M2 8h12" />
      </ZoomButton>
      <ZoomButton label={t('map.zoomOut')} possible={possible.out} onPress={() => press('out')}>
        <path d="M2 8h12" />
      </ZoomButton>
    </div>
  );
}

function ZoomButton({ label, possible, onPress, children }: { label: string; possible: boolean; onPress: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className="zoom-controls__button"
      aria-label={label}
      title={label}
      aria-disabled={possible ? undefined : true}
      onClick={() => {
        if (possible) onPress();
      }}
    >
      <svg className="zoom-controls__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        {children}
      </svg>
    </button>
  );
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followInsets, isInView, type CanvasArea } from '../../domain/keep-in-view';
import { MAPS } from '../../domain/maps';
import { playerToMap } from '../../domain/position';
import { Camera } from '../../engine/camera';
import type { ViewportInsets } from '../../engine/types';
import { closeMap, openMap, selectMarker } from '../../state/mapView';
import { setPlayerPosition } from '../../state/player';
import { requestFocus, resetPopup, setPopupAnchor, takeFocus } from '../../state/popup';
import type { FramingEngine } from './keepFramed';
import { wireCoveredInsets } from './wireCoveredInsets';
import { DESKTOP_BAR_ONLY, DESKTOP_PANELS } from '../../domain/testing/canvas-areas';

/** A page whose area the test sets, and which says when it changed. */
function fakePage(area: CanvasArea | null) {
  const page = { area, listener: null as (() => void) | null, stopped: false };
  return {
    page,
    measure: () => page.area,
    watch: (onChange: () => void) => {
      page.listener = onChange;
      return () => {
        page.stopped = true;
      };
    },
  };
}

describe('wireCoveredInsets', () => {
  it('gives the engine the visible part\'s insets each time the page says the area changed', () => {
    const seen: ViewportInsets[] = [];
    const engine = { setCoveredInsets: (insets: ViewportInsets) => seen.push(insets) };
    // A phone: the compact top bar across the top.
    const { page, measure, watch } = fakePage({ width: 390, height: 844, covers: [{ left: 10, top: 10, right: 380, bottom: 64 }] });
    const stop = wireCoveredInsets(engine, { measure, watch });
    // Nothing is measured before the page's next layout says so.
    expect(seen).toEqual([]);
    page.listener?.();
    expect(seen).toEqual([{ top: 64, right: 0, bottom: 0, left: 0 }]);
    // The levels and quests sheet opens at the bottom.
    page.area = { width: 390, height: 844, covers: [{ left: 10, top: 10, right: 380, bottom: 64 }, { left: 10, top: 500, right: 380, bottom: 834 }] };
    page.listener?.();
    expect(seen.at(-1)).toEqual({ top: 64, right: 0, bottom: 344, left: 0 });
    // No laid-out canvas: nothing covers it.
    page.area = null;
    page.listener?.();
    expect(seen.at(-1)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    stop();
    expect(page.stopped).toBe(true);
  });

  it('leaves an engine without the setter (a test fake) alone', () => {
    const { page, measure, watch } = fakePage({ width: 390, height: 844, covers: [] });
    wireCoveredInsets({}, { measure, watch });
    expect(() => page.listener?.()).not.toThrow();
  });

  it('gives a view that follows the player the insets that let it centre any point (the stream overlay)', () => {
    const seen: ViewportInsets[] = [];
    const { page, measure, watch } = fakePage({ width: 401, height: 301, covers: [] });
    wireCoveredInsets({ setCoveredInsets: (insets) => seen.push(insets) }, { measure, watch, insets: followInsets });
    page.listener?.();
    expect(seen).toEqual([{ top: 150, right: 200, bottom: 150, left: 200 }]);
    // The overlay's window resized in the streaming software.
    page.area = { width: 801, height: 601, covers: [] };
    page.listener?.();
    expect(seen.at(-1)).toEqual({ top: 300, right: 400, bottom: 300, left: 400 });
  });

  it('with immediate, measures once at wiring too (the overlay\'s first view), then on each layout', () => {
    const seen: ViewportInsets[] = [];
    const { page, measure, watch } = fakePage({ width: 401, height: 301, covers: [] });
    wireCoveredInsets({ setCoveredInsets: (insets) => seen.push(insets) }, { measure, watch, insets: followInsets, immediate: true });
    expect(seen).toEqual([{ top: 150, right: 200, bottom: 150, left: 200 }]);
    page.area = { width: 801, height: 601, covers: [] };
    page.listener?.();
    expect(seen).toHaveLength(2);
  });
});

/**
 * An engine around the real camera (its clamp counts the insets), on a 1280×800 canvas over
 * Customs (4400×3200, start zoom 0.6); camera changes are heard at once.
 */
function cameraEngine() {
  const camera = new Camera(MAPS.customs, { width: 1280, height: 800 });
  const told: ViewportInsets[] = [];
  const engine: FramingEngine = {
    camera: () => camera.state,
    setView: (view) => camera.set(view),
    toScreen: (x, y) => camera.toScreen(x, y),
    setCoveredInsets: (insets) => {
      told.push(insets);
      camera.setInsets(insets);
    },
    on: ((event: string, listener: () => void) => (event === 'camerachange' ? camera.onChange(listener) : () => undefined)) as FramingEngine['on'],
  };
  return { camera, engine, told };
}

/** The probe's page: top bar, categories, and the levels and quests column; and with panels hidden. */
const PANELS = DESKTOP_PANELS;
const BAR = DESKTOP_BAR_ONLY;

/** Cultist Spawn on Customs: 16 map px in from the map's right edge. */
const EDGE_MARKER = { x: 4384, y: 749.58 };

describe('wireCoveredInsets on a map page: what the page framed stays in view', () => {
  beforeEach(() => {
    resetPopup();
    selectMarker(null);
    setPlayerPosition(null);
    openMap('customs');
  });
  afterEach(() => {
    resetPopup();
    selectMarker(null);
    setPlayerPosition(null);
    closeMap();
  });

  it('frames a `?obj=` link\'s marker, served before the covers were measured, clear of the panel at once', () => {
    const { camera, engine } = cameraEngine();
    // The link opened the marker before the engine started; wirePopup centred it with no insets:
    // the clamp held the map's edge at the canvas's, the marker under the quest panel.
    selectMarker('cultist');
    setPopupAnchor(EDGE_MARKER);
    camera.set({ x: EDGE_MARKER.x, y: EDGE_MARKER.y });
    expect(camera.toScreen(EDGE_MARKER.x, EDGE_MARKER.y).x).toBeCloseTo(1270.4);
    const { page, measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    // Measured at wiring (before the page's next layout, so before the next frame).
    expect(page.listener).not.toBeNull();
    const at = camera.toScreen(EDGE_MARKER.x, EDGE_MARKER.y);
    expect(isInView(at, PANELS)).toBe(true);
    expect(at.x).toBeCloseTo(887.5);
  });

  it('frames a `#pos=` position as Where am I does once the covers are known', () => {
    const { camera, engine } = cameraEngine();
    // Near the map's right edge, 160 map px in (96 screen px).
    const position = { x: -250, y: -200, z: 1, look: null };
    setPlayerPosition(position);
    const { mapX, mapY } = playerToMap(position, MAPS.customs);
    // wirePlayer put it in the middle of the visible part, as far as a clamp with no insets let it.
    camera.set({ x: mapX, y: mapY });
    const { measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    expect(isInView(camera.toScreen(mapX, mapY), PANELS)).toBe(true);
  });

  it('keeps a `#pos=` position at the map\'s corner in view as the covers are measured again (the top bar grown, the quest panel loaded)', () => {
    const { camera, engine } = cameraEngine();
    // 40 map px in from the map's top right corner: at the start zoom, 24 px in from the clamp's edges.
    const position = { x: -407.95, y: -447.35, z: 1, look: null };
    setPlayerPosition(position);
    const { mapX, mapY } = playerToMap(position, MAPS.customs);
    camera.set({ x: mapX, y: mapY });
    const { page, measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    expect(isInView(camera.toScreen(mapX, mapY), PANELS)).toBe(true);
    // Measured again after the fonts and the quest list came: the bar 12 px taller, the same panels.
    const later: CanvasArea = { ...PANELS, covers: [{ left: 10, top: 10, right: 677, bottom: 64 }, ...PANELS.covers.slice(1)] };
    page.area = later;
    page.listener?.();
    expect(isInView(camera.toScreen(mapX, mapY), later)).toBe(true);
    // The same covers once more (a panel grew within the column it is counted as): nothing moves.
    const before = camera.state;
    page.listener?.();
    expect(camera.state).toEqual(before);
  });

  it('reads no layout at wiring when nothing is framed', () => {
    const { engine, told } = cameraEngine();
    const { page, measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    expect(told).toEqual([]);
    page.listener?.();
    expect(told).toEqual([{ top: 52, right: 280, bottom: 0, left: 250 }]);
  });

  it('brings a link\'s marker the covers\' clamp held at a panel\'s edge into view (Find a marker too)', async () => {
    const { camera, engine } = cameraEngine();
    const { page, measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    page.listener?.();
    // wirePopup serves the request: as far as the clamp lets it, the marker at the panel's edge.
    requestFocus(EDGE_MARKER.x, EDGE_MARKER.y);
    takeFocus();
    camera.set({ x: EDGE_MARKER.x, y: EDGE_MARKER.y });
    expect(camera.toScreen(EDGE_MARKER.x, EDGE_MARKER.y).x).toBeCloseTo(990.4);
    setPopupAnchor(EDGE_MARKER);
    await Promise.resolve();
    await Promise.resolve();
    expect(camera.toScreen(EDGE_MARKER.x, EDGE_MARKER.y).x).toBeCloseTo(887.5);
  });

  it('leaves a marker the visitor clicked where it is', async () => {
    const { camera, engine } = cameraEngine();
    const { page, measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    page.listener?.();
    // Clicked at 900, near the panel but in view.
    const clicked = { x: 4000, y: 749.58 };
    camera.set({ x: clicked.x - (900 - 640) / 0.6, y: clicked.y });
    expect(camera.toScreen(clicked.x, clicked.y).x).toBeCloseTo(900);
    const before = camera.state;
    selectMarker('scav');
    setPopupAnchor(clicked);
    await Promise.resolve();
    await Promise.resolve();
    expect(camera.state).toEqual(before);
  });

  it('Show panels: the open popup\'s marker framed while they were hidden does not end under the panel', () => {
    const { camera, engine } = cameraEngine();
    const { page, measure, watch } = fakePage(BAR);
    wireCoveredInsets(engine, { measure, watch });
    page.listener?.();
    // Panels hidden, the popup's marker at 1150: in view.
    camera.set({ x: EDGE_MARKER.x - (1150 - 640) / 0.6, y: EDGE_MARKER.y });
    setPopupAnchor(EDGE_MARKER);
    page.area = PANELS;
    page.listener?.();
    expect(isInView(camera.toScreen(EDGE_MARKER.x, EDGE_MARKER.y), PANELS)).toBe(true);
    // Hidden again, then a marker the visitor panned off the canvas: Show panels leaves it.
    page.area = BAR;
    page.listener?.();
    camera.set({ x: 1000, y: 1000 });
    const before = camera.state;
    page.area = PANELS;
    page.listener?.();
    expect(camera.state).toEqual(before);
  });

  it('takes the reach back as the visitor pans the map\'s edge out, without moving the map', () => {
    const { camera, engine, told } = cameraEngine();
    selectMarker('cultist');
    setPopupAnchor(EDGE_MARKER);
    camera.set({ x: EDGE_MARKER.x, y: EDGE_MARKER.y });
    const { measure, watch } = fakePage(PANELS);
    wireCoveredInsets(engine, { measure, watch });
    // How far the map's right edge is in from the canvas's.
    const edgeIn = () => 1280 - camera.toScreen(MAPS.customs.size.width, 0).x;
    expect(camera.toScreen(EDGE_MARKER.x, EDGE_MARKER.y).x).toBeCloseTo(887.5);
    expect(told.at(-1)?.right).toBeCloseTo(edgeIn() + 0.5);
    // The visitor drags the map 60 px to the right: the map's edge goes out, the reach follows.
    const framed = edgeIn();
    camera.panBy(60, 0);
    expect(edgeIn()).toBeCloseTo(framed - 60);
    expect(told.at(-1)?.right).toBeCloseTo(framed - 60 + 0.5);
    // Not back in (but for the half pixel to spare): the reach is taken.
    camera.panBy(-30, 0);
    expect(edgeIn()).toBeCloseTo(framed - 60 + 0.5);
    const dragged = camera.state;
    // Back to the panel's edge and beyond: only the covers' insets are left.
    camera.panBy(200, 0);
    expect(told.at(-1)).toEqual({ top: 52, right: 280, bottom: 0, left: 250 });
    expect(camera.state.x).toBeCloseTo(dragged.x - 200 / 0.6);
  });
});

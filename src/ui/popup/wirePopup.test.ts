import { afterEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { Camera } from '../../engine/camera';
import type { CameraView, CoveredInsetsSource, ViewportInsets } from '../../engine/types';
import { popup, requestFocus, resetPopup, setEnlarged, setPointerOverPopup, setPopupAnchor, setPopupBoxHeight } from '../../state/popup';
import { createFakeEngine } from '../map/testing/fakeEngine';
import { FOCUS_SETTLE_MS, wirePopup } from './wirePopup';

afterEach(() => resetPopup());
const screenSize = { width: 1000, height: 800 };
const viewport = { size: () => screenSize, onResize: () => () => undefined };
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('wirePopup', () => {
  it('stops wheel zoom while the pointer is over the popup', async () => {
    const engine = createFakeEngine();
    const off = wirePopup(engine, viewport);
    setPointerOverPopup(true);
    await tick();
    setPointerOverPopup(false);
    await tick();
    const zoomCalls = engine.calls.filter((c) => c.method === 'setZoomEnabled').map((c) => c.args[0]);
    expect(zoomCalls).toEqual([true, false, true]);
    off();
  });

  it('moves the map on a focus request, also one made before the engine existed, so the marker shows above the popup', async () => {
    requestFocus(1200, 900);
    const engine = createFakeEngine();
    const off = wirePopup(engine, viewport);
    // Unmeasured, the popup may grow to 46 % of 800 px (368): its top at 416, the bar's bottom at
    // 54, so the marker sits at 235, not at the middle of the screen (400) inside the popup.
    expect(engine.toScreen(1200, 900)).toEqual({ x: 500, y: 235 });
    setPopupBoxHeight(300);
    requestFocus(300, 200);
    await tick();
    // A popup's height is known (the open one's): its top at 484, the marker at (54 + 484) / 2.
    expect(engine.toScreen(300, 200)).toEqual({ x: 500, y: 269 });
    expect(engine.camera().zoom).toBe(2);
    off();
    requestFocus(10, 10);
    await tick();
    expect(engine.toScreen(300, 200)).toEqual({ x: 500, y: 269 });
  });

  it('moves the map again as the focused marker\'s popup is measured, not for another marker\'s popup', async () => {
    const engine = createFakeEngine();
    const off = wirePopup(engine, viewport);
    setPopupBoxHeight(300);
    requestFocus(1200, 900);
    await tick();
    expect(engine.toScreen(1200, 900).y).toBe(269);
    // Its popup shows (its point first, then its height): 200 px tall, its top at 584.
    setPopupAnchor({ x: 1200, y: 900 });
    await tick();
    expect(engine.toScreen(1200, 900).y).toBe(269);
    setPopupBoxHeight(200);
    await tick();
    expect(engine.toScreen(1200, 900)).toEqual({ x: 500, y: 319 });
    expect(popup.placement).toBe('bottom');
    // Another marker opened: its popup's height moves nothing.
    setPopupAnchor({ x: 100, y: 100 });
    await tick();
    setPopupBoxHeight(120);
    await tick();
    expect(engine.toScreen(1200, 900)).toEqual({ x: 500, y: 319 });
    off();
  });

  it('never moves the map again once the user moved it, the popup was enlarged or the popup settled', async () => {
    let clock = 0;
    const engine = createFakeEngine();
    const off = wirePopup(engine, viewport, () => clock);
    const focusOn = async (x: number, y: number) => {
      setPopupBoxHeight(300);
      requestFocus(x, y);
      setPopupAnchor({ x, y });
      await tick();
      expect(engine.toScreen(x, y).y).toBe(269);
    };

    // The user pans before the popup's height is in: the map stays where they put it.
    await focusOn(1200, 900);
    engine.setView({ y: engine.camera().y + 50 });
    engine.emit('camerachange', engine.camera());
    setPopupBoxHeight(200);
    await tick();
    expect(engine.toScreen(1200, 900).y).toBe(169);
    // The wiring's own move, as the engine reports it a frame later, is not the user's.
    await focusOn(1300, 1000);
    engine.emit('camerachange', engine.camera());
    setPopupBoxHeight(200);
    await tick();
    expect(engine.toScreen(1300, 1000).y).toBe(319);

    // Enlarge, clicked before the height changed.
    await focusOn(1400, 1100);
    setEnlarged(true);
    await tick();
    setPopupBoxHeight(700);
    await tick();
    expect(engine.toScreen(1400, 1100).y).toBe(269);
    setEnlarged(false);

    // Later than the settle time after the popup showed: a change of its height is the user's doing.
    await focusOn(1500, 1200);
    clock += FOCUS_SETTLE_MS + 1;
    setPopupBoxHeight(200);
    await tick();
    expect(engine.toScreen(1500, 1200).y).toBe(269);
    off();
  });

  it('places the popup clear of its marker as the marker moves on screen', async () => {
    // The fake engine's screen is the window's: screen = (map − centre) · zoom + size / 2.
    const engine = createFakeEngine(screenSize, { x: 500, y: 400, zoom: 1 });
    const off = wirePopup(engine, viewport);
    setPopupBoxHeight(200);
    setPopupAnchor({ x: 500, y: 400 });
    await tick();
    expect(popup.placement).toBe('bottom');
    // The camera moves: the marker now sits low on the screen, where the popup is.
    engine.setView({ y: 400 - (screenSize.height / 2 - 60) });
    engine.emit('camerachange', engine.camera());
    expect(popup.placement).toBe('top');
    setPopupAnchor(null);
    await tick();
    expect(popup.placement).toBe('bottom');
    off();
  });
});

/**
 * An engine whose camera clamps as the real one does (src/engine/camera.ts, Customs: 4400 × 3200
 * map pixels), the page's covers set as wireCoveredInsets sets them. Like the real engine it says
 * `camerachange` a frame later: here only when the test says so (`emitCameraChange`).
 */
function createClampedEngine(size: { width: number; height: number }, pageInsets: ViewportInsets, withPopupRoom = true) {
  const cam = new Camera(MAPS.customs, size);
  cam.set({ zoom: 1, x: 2200, y: 1600 });
  cam.setInsets(pageInsets);
  const listeners = new Set<(view: CameraView) => void>();
  const popupInsets: ViewportInsets[] = [];
  const engine = {
    setZoomEnabled: () => undefined,
    setView: (view: Partial<CameraView>) => cam.set(view),
    camera: () => cam.state,
    toScreen: (x: number, y: number) => cam.toScreen(x, y),
    toMap: (x: number, y: number) => cam.toMap(x, y),
    on: ((_event: 'camerachange', listener: (view: CameraView) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }) as never,
    setCoveredInsets: withPopupRoom
      ? (insets: ViewportInsets, source: CoveredInsetsSource = 'page') => {
        if (source === 'popup') popupInsets.push(insets);
        cam.setInsets(insets, source);
      }
      : undefined,
    emitCameraChange: () => listeners.forEach((listener) => listener(cam.state)),
    popupInsets,
  };
  return engine;
}

/** Within the half pixel the popup's room keeps back from the focus point. */
const near = (at: { x: number; y: number }, to: { x: number; y: number }) => Math.abs(at.x - to.x) <= 0.5 && Math.abs(at.y - to.y) <= 0.5;

describe('wirePopup: the popup\'s room on a phone', () => {
  const phone = { width: 390, height: 844 };
  const phoneViewport = { size: () => phone, onResize: () => () => undefined };
  // The phone's top bar (54 px): the page's covers as wireCoveredInsets reports them.
  const bar = { top: 54, right: 0, bottom: 0, left: 0 };

  it('lands a marker at the map\'s edge or corner where focusPoint asks, between the top bar and the sheet', async () => {
    const engine = createClampedEngine(phone, bar);
    const off = wirePopup(engine, phoneViewport);
    setPopupBoxHeight(300);
    // The sheet's top at 528, the bar's bottom at 54: the marker goes to (195, 291).
    for (const corner of [{ x: 2200, y: 3200 }, { x: 0, y: 0 }, { x: 4400, y: 3200 }, { x: 0, y: 1600 }]) {
      requestFocus(corner.x, corner.y);
      setPopupAnchor(corner);
      await tick();
      expect(near(engine.toScreen(corner.x, corner.y), { x: 195, y: 291 })).toBe(true);
      engine.emitCameraChange();
      expect(popup.placement).toBe('bottom');
    }
    off();
  });

  it('without the popup\'s room the camera stops the map at its edge: the marker under the sheet, at the screen\'s edge', async () => {
    const engine = createClampedEngine(phone, bar, false);
    const off = wirePopup(engine, phoneViewport);
    setPopupBoxHeight(300);
    requestFocus(2200, 3200);
    setPopupAnchor({ x: 2200, y: 3200 });
    await tick();
    expect(engine.toScreen(2200, 3200)).toEqual({ x: 195, y: 844 });
    off();
  });

  it('gives the room back when the popup closes, and the camera settles back inside the page\'s covers', async () => {
    const engine = createClampedEngine(phone, bar);
    const off = wirePopup(engine, phoneViewport);
    setPopupBoxHeight(300);
    requestFocus(2200, 3200);
    setPopupAnchor({ x: 2200, y: 3200 });
    await tick();
    expect(engine.toScreen(2200, 3200).y).toBeLessThan(300);
    // The user drags the map's top edge down as far as the room lets it, while the popup is open.
    engine.setView({ y: -1e6 });
    engine.emitCameraChange();
    expect(near(engine.toScreen(0, 0), { x: engine.toScreen(0, 0).x, y: 291 })).toBe(true);
    setPopupAnchor(null);
    await tick();
    expect(engine.popupInsets.at(-1)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    expect(engine.toScreen(0, 0).y).toBe(54);
    // A popup opened by a click (no focus request) makes room too; unwired, the room goes.
    setPopupAnchor({ x: 100, y: 100 });
    await tick();
    expect(engine.popupInsets.at(-1)?.top).toBe(290.5);
    off();
    expect(engine.popupInsets.at(-1)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });

  it('follows the sheet\'s height as it is measured: the room moves with the focus point', async () => {
    const engine = createClampedEngine(phone, bar);
    const off = wirePopup(engine, phoneViewport);
    requestFocus(2200, 3200);
    setPopupAnchor({ x: 2200, y: 3200 });
    await tick();
    // Unmeasured, the sheet may grow to 46 % of 844 (388): its top at 440, the marker at 247.
    expect(near(engine.toScreen(2200, 3200), { x: 195, y: 247 })).toBe(true);
    setPopupBoxHeight(200);
    await tick();
    expect(near(engine.toScreen(2200, 3200), { x: 195, y: 341 })).toBe(true);
    off();
  });

  it('changes nothing on a desktop, where the popup sits beside its marker', async () => {
    const engine = createClampedEngine(screenSize, { top: 54, right: 0, bottom: 0, left: 0 });
    const off = wirePopup(engine, viewport);
    setPopupBoxHeight(300);
    requestFocus(2200, 3200);
    setPopupAnchor({ x: 2200, y: 3200 });
    await tick();
    expect(engine.popupInsets).toEqual([]);
    // The map stops at its edge, as before; the popup goes to the top, clear of the marker.
    expect(engine.toScreen(2200, 3200)).toEqual({ x: 500, y: 800 });
    engine.emitCameraChange();
    expect(popup.placement).toBe('top');
    off();
  });
});

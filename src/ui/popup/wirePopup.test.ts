import { afterEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { Camera } from '../../engine/camera';
import type { CameraView, CoveredInsetsSource, ViewportInsets } from '../../engine/types';
import type { Marker } from '../../domain/marker';
import {
  cancelEdit, popup, requestFocus, resetPopup, setEnlarged, setPointerOverPopup, setPopupAnchor, setPopupBoxHeight, showPopupFor, startEdit,
} from '../../state/popup';
import { createFakeEngine } from '../map/testing/fakeEngine';
import { FOCUS_SETTLE_MS, UNCOVER_DELAY_MS, wirePopup } from './wirePopup';

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

/** A new marker at map point (x, y), as the marker tool places it. */
const newMarker = (uid: string, x: number, y: number): Marker =>
  ({ uid, map: 'customs', category: 'Markers', subCategory: 'Marker', level: 1, geometry: { x, y }, name: '', desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, itemsUid: [] }) as Marker;

/** Past the wait for the page's layout to settle before the map is moved for an edit form. */
const settled = () => new Promise((resolve) => setTimeout(resolve, UNCOVER_DELAY_MS + 30));

/** The popup opens on a marker (its point first, as useOpenMarker sets it) and, with "Open new markers in edit mode", its form. */
async function openInEditMode(marker: Marker) {
  showPopupFor(marker.uid);
  setPopupAnchor(marker.geometry);
  startEdit(marker);
  await settled();
}

describe('wirePopup: the edit form', () => {
  it('goes beside its marker where the bottom form would cover it, and stays there as the form grows (the probe\'s case)', async () => {
    // 1280 × 800 with the admin dock (202 px), the camera at zoom 1: the screen is the map.
    const size = { width: 1280, height: 800, dockHeight: 202 };
    const engine = createFakeEngine(size, { x: 640, y: 400, zoom: 1 });
    const off = wirePopup(engine, { size: () => size, onResize: () => () => undefined });
    setPopupBoxHeight(200);
    await openInEditMode(newMarker('m-1', 450, 150));
    expect(popup.placement).toBe('right');
    // The admin types: the form grows, and stays where it is.
    for (const height of [300, 420, 502]) {
      setPopupBoxHeight(height);
      await tick();
      expect(popup.placement).toBe('right');
    }
    // The next marker placed while the form is open: its form goes where it leaves that one free.
    await openInEditMode(newMarker('m-2', 500, 150));
    expect(popup.placement).toBe('right');
    await openInEditMode(newMarker('m-3', 640, 500));
    expect(popup.placement).toBe('left');
    // Nothing of this moved the map: on a desktop a side is always free.
    expect(engine.camera()).toEqual({ x: 640, y: 400, zoom: 1 });
    // Cancel: the view popup (200 px at the bottom, 380–582) is placed by its measured height again.
    setPopupBoxHeight(200);
    cancelEdit();
    await tick();
    expect(popup.placement).toBe('top');
    off();
  });

  it('on a phone moves the map so that a marker under the sheet shows above it, once: the user\'s pan is never undone', async () => {
    const size = { width: 390, height: 844, topBarBottom: 64 };
    const engine = createFakeEngine(size, { x: 195, y: 422, zoom: 1 });
    const off = wirePopup(engine, { size: () => size, onResize: () => () => undefined });
    // The view popup does not move the map for a click.
    showPopupFor('m-1');
    setPopupAnchor({ x: 195, y: 450 });
    await tick();
    expect(engine.toScreen(195, 450)).toEqual({ x: 195, y: 450 });
    // Edit: the sheet (360–828 at its tallest) and a top one (74–542) would cover it: it goes to the middle of the map above the sheet.
    startEdit(newMarker('m-1', 195, 450));
    await tick();
    // Not before the page's layout has settled (the dock folds away under a phone's form).
    expect(engine.toScreen(195, 450)).toEqual({ x: 195, y: 450 });
    await settled();
    expect(engine.toScreen(195, 450)).toEqual({ x: 195, y: 212 });
    expect(popup.placement).toBe('bottom');
    // The form grows, the user pans the marker down under it: the map stays where they put it.
    setPopupBoxHeight(468);
    engine.setView({ y: engine.camera().y - 250 });
    engine.emit('camerachange', engine.camera());
    await tick();
    expect(engine.toScreen(195, 450).y).toBe(462);
    // A marker placed where the form leaves it free moves nothing.
    const before = engine.camera();
    await openInEditMode(newMarker('m-2', 195, engine.toMap(195, 300).y));
    expect(engine.camera()).toEqual(before);
    // Its marker moved under the sheet (the move tool): the map brings it out again.
    setPopupAnchor({ x: 195, y: engine.toMap(195, 500).y });
    await settled();
    expect(engine.toScreen(195, popup.anchor!.y)).toEqual({ x: 195, y: 212 });
    off();
  });

  it('decides with the dock as it is once the form is open: a dock that folds away under the form moves nothing', async () => {
    // The phone's editor tools (125 px) are open as the form opens; they fold away a frame later.
    const size = { width: 390, height: 844, topBarBottom: 64, dockHeight: 125 };
    const listeners = new Set<() => void>();
    const engine = createFakeEngine(size, { x: 195, y: 422, zoom: 1 });
    const off = wirePopup(engine, {
      size: () => size,
      onResize: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    // A marker at 300: under the sheet above a 125 px dock (310–703), clear of it without the dock (360–828).
    showPopupFor('m-1');
    setPopupAnchor({ x: 195, y: 300 });
    startEdit(newMarker('m-1', 195, 300));
    await tick();
    size.dockHeight = 0;
    listeners.forEach((listener) => listener());
    await settled();
    expect(engine.toScreen(195, 300)).toEqual({ x: 195, y: 300 });
    expect(popup.placement).toBe('bottom');
    off();
  });

  it('an enlarged form keeps its own place: the map does not move', async () => {
    const size = { width: 390, height: 844, topBarBottom: 64 };
    const engine = createFakeEngine(size, { x: 195, y: 422, zoom: 1 });
    const off = wirePopup(engine, { size: () => size, onResize: () => () => undefined });
    setEnlarged(true);
    await openInEditMode(newMarker('m-1', 195, 450));
    expect(engine.toScreen(195, 450)).toEqual({ x: 195, y: 450 });
    off();
    setEnlarged(false);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
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

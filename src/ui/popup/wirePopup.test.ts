import { afterEach, describe, expect, it } from 'vitest';
import { popup, requestFocus, resetPopup, setPointerOverPopup, setPopupAnchor, setPopupBoxHeight } from '../../state/popup';
import { createFakeEngine } from '../map/testing/fakeEngine';
import { wirePopup } from './wirePopup';

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

  it('centres the map on a focus request, also one made before the engine existed', async () => {
    requestFocus(1200, 900);
    const engine = createFakeEngine();
    const off = wirePopup(engine, viewport);
    expect(engine.camera()).toMatchObject({ x: 1200, y: 900 });
    requestFocus(300, 200);
    await tick();
    expect(engine.camera()).toMatchObject({ x: 300, y: 200, zoom: 2 });
    off();
    requestFocus(10, 10);
    await tick();
    expect(engine.camera()).toMatchObject({ x: 300, y: 200 });
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

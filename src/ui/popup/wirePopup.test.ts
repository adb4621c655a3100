import { afterEach, describe, expect, it } from 'vitest';
import { requestFocus, resetPopup, setPointerOverPopup } from '../../state/popup';
import { createFakeEngine } from '../map/testing/fakeEngine';
import { wirePopup } from './wirePopup';

afterEach(() => resetPopup());
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('wirePopup', () => {
  it('stops wheel zoom while the pointer is over the popup', async () => {
    const engine = createFakeEngine();
    const off = wirePopup(engine);
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
    const off = wirePopup(engine);
    expect(engine.camera()).toMatchObject({ x: 1200, y: 900 });
    requestFocus(300, 200);
    await tick();
    expect(engine.camera()).toMatchObject({ x: 300, y: 200, zoom: 2 });
    off();
    requestFocus(10, 10);
    await tick();
    expect(engine.camera()).toMatchObject({ x: 300, y: 200 });
  });
});

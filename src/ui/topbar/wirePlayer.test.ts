import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { lookArrowAngle, NO_POSITION, playerToMap } from '../../domain/position';
import type { PlayerMarker } from '../../engine/types';
import { closeMap, mapView, openMap } from '../../state/mapView';
import { pilot } from '../../state/pilot';
import { resetPlayerPosition, setPlayerPosition } from '../../state/player';
import { session, setSessionUser } from '../../state/session';
import { loadSettings, settings, updateSettings } from '../../state/settings';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createFakeEngine } from '../map/testing/fakeEngine';
import { playerMarker, wirePlayer } from './wirePlayer';

const factory = MAPS.factory;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const setPlayerCalls = (engine: ReturnType<typeof createFakeEngine>) =>
  engine.calls.filter((c) => c.method === 'setPlayer').map((c) => [c.args[0] as PlayerMarker | null, c.args[1] as boolean] as const);

const pro = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
const admin = { name: 'admin', pro: false, admin: true, questsDone: [], questsHidden: [] };

beforeEach(() => {
  setStorageBackend(memoryStorage());
  loadSettings();
  openMap('factory');
});
afterEach(() => {
  setPlayerPosition(null);
  setSessionUser(null);
  closeMap();
  setStorageBackend(null);
  loadSettings();
});

describe('playerMarker', () => {
  it('puts the player in map pixels, with the arrow only when asked', () => {
    const position = { x: 10, y: -20, z: 1, look: 90 };
    const { mapX, mapY } = playerToMap(position, factory);
    expect(playerMarker(position, factory, false)).toEqual({ mapX, mapY, arrowAngle: null });
    expect(playerMarker(position, factory, true)).toEqual({ mapX, mapY, arrowAngle: lookArrowAngle(90, factory) });
    expect(playerMarker({ ...position, look: null }, factory, true).arrowAngle).toBeNull();
  });
});

describe('wirePlayer', () => {
  it('fades a live position that stops coming, redrawn without a ping, and draws it fresh when it is current again', async () => {
    const engine = createFakeEngine({ width: 1000, height: 800 }, { x: 0, y: 0, zoom: factory.startZoom });
    const off = wirePlayer(engine, factory);
    try {
      setPlayerPosition({ x: 5, y: 6, z: -3, look: null });
      await flush();
      expect(setPlayerCalls(engine).at(-1)?.[0]?.stale).toBeUndefined();
      pilot.stale = true;
      await flush();
      const [faded, ping] = setPlayerCalls(engine).at(-1)!;
      expect(faded).toMatchObject({ stale: true });
      expect(ping).toBe(false);
      pilot.stale = false;
      await flush();
      expect(setPlayerCalls(engine).at(-1)?.[0]?.stale).toBeUndefined();
    } finally {
      pilot.stale = false;
      off();
    }
  });

  it('does not move the view at or below the start zoom while the position is in view', async () => {
    const position = { x: 5, y: 6, z: -3, look: null };
    const { mapX, mapY } = playerToMap(position, factory);
    // The player 100 screen pixels right of and below the centre of a bare 1000×800 canvas.
    const view = { x: mapX - 100 / factory.startZoom, y: mapY - 100 / factory.startZoom, zoom: factory.startZoom };
    const engine = createFakeEngine({ width: 1000, height: 800 }, view);
    const off = wirePlayer(engine, factory);
    setPlayerPosition(position);
    await flush();
    expect(engine.camera()).toEqual(view);
    expect(mapView.level).toBe(-1);
    expect(setPlayerCalls(engine)).toHaveLength(1);
    expect(setPlayerCalls(engine)[0][1]).toBe(true);
    off();
  });

  describe('out of view at or below the start zoom (beyond the spec)', () => {
    const position = { x: 5, y: 6, z: 0, look: null };
    const { mapX, mapY } = playerToMap(position, factory);
    const zoom = factory.startZoom;
    /** A view with the player `dx` screen pixels right of the canvas centre. */
    const viewWithPlayerAt = (dx: number) => ({ x: mapX - dx / zoom, y: mapY, zoom });

    it('pans at the same zoom so the player is at the centre of the bare canvas', async () => {
      // 450 px right of the centre of a 1000 px canvas: inside it, but within its 15 % margin.
      const engine = createFakeEngine({ width: 1000, height: 800 }, viewWithPlayerAt(450));
      const off = wirePlayer(engine, factory, undefined, { canvasArea: () => null });
      setPlayerPosition(position);
      await flush();
      expect(engine.camera().zoom).toBe(zoom);
      expect(engine.toScreen(mapX, mapY).x).toBeCloseTo(500);
      expect(engine.toScreen(mapX, mapY).y).toBeCloseTo(400);
      off();
    });

    it('counts what covers the canvas: a player under a panel goes to the middle of the part left', async () => {
      // A right panel from x 700: the visible part is 0…700 × 0…800.
      const area = { width: 1000, height: 800, covers: [{ left: 700, top: 0, right: 1000, bottom: 800 }] };
      const engine = createFakeEngine({ width: 1000, height: 800 }, viewWithPlayerAt(300));
      const off = wirePlayer(engine, factory, undefined, { canvasArea: () => area });
      setPlayerPosition(position);
      await flush();
      expect(engine.camera().zoom).toBe(zoom);
      expect(engine.toScreen(mapX, mapY).x).toBeCloseTo(350);
      expect(engine.toScreen(mapX, mapY).y).toBeCloseTo(400);
      off();
    });

    it('moves nothing for a live update that stays in view', async () => {
      const engine = createFakeEngine({ width: 1000, height: 800 }, viewWithPlayerAt(450));
      const off = wirePlayer(engine, factory, undefined, { canvasArea: () => null });
      setPlayerPosition(position);
      await flush();
      const panned = engine.camera();
      setPlayerPosition({ ...position, x: position.x + 1 });
      await flush();
      expect(engine.camera()).toEqual(panned);
      off();
    });

    it('still centres when zoomed in beyond the start zoom (spec), and always when following', async () => {
      const zoomedIn = createFakeEngine({ width: 1000, height: 800 }, { x: mapX + 10, y: mapY, zoom: zoom * 2 });
      const offZoomed = wirePlayer(zoomedIn, factory, undefined, { canvasArea: () => null });
      setPlayerPosition(position);
      await flush();
      expect(zoomedIn.camera()).toEqual({ x: mapX, y: mapY, zoom: zoom * 2 });
      offZoomed();
      const following = createFakeEngine({ width: 1000, height: 800 }, { x: mapX + 10, y: mapY, zoom });
      const offFollowing = wirePlayer(following, factory, undefined, { follow: true, canvasArea: () => null });
      setPlayerPosition(position);
      await flush();
      expect(following.camera()).toEqual({ x: mapX, y: mapY, zoom });
      offFollowing();
    });
  });

  it('moves only the marker for the reset of a name not recognised: no level, no view', async () => {
    const view = { x: 10, y: 20, zoom: factory.startZoom * 2 };
    const engine = createFakeEngine({ width: 1000, height: 800 }, view);
    const off = wirePlayer(engine, factory, undefined, { canvasArea: () => null });
    setPlayerPosition({ x: 1, y: 2, z: 4, look: null });
    await flush();
    expect(mapView.level).toBe(2);
    engine.setView(view);
    resetPlayerPosition();
    await flush();
    expect(mapView.level).toBe(2);
    expect(engine.camera()).toEqual(view);
    const origin = playerToMap(NO_POSITION, factory);
    expect(setPlayerCalls(engine).at(-1)).toEqual([{ mapX: origin.mapX, mapY: origin.mapY, arrowAngle: null }, true]);
    off();
  });

  it('pings again when the same position is set twice, and removes the marker for null', async () => {
    const engine = createFakeEngine();
    const off = wirePlayer(engine, factory);
    setPlayerPosition({ x: 5, y: 6, z: 0, look: null });
    await flush();
    setPlayerPosition({ x: 5, y: 6, z: 0, look: null });
    await flush();
    setPlayerPosition(null);
    await flush();
    const calls = setPlayerCalls(engine);
    expect(calls.map(([, ping]) => ping)).toEqual([true, true, false]);
    expect(calls[2][0]).toBeNull();
    off();
    setPlayerPosition({ x: 1, y: 1, z: 0, look: null });
    await flush();
    expect(setPlayerCalls(engine)).toHaveLength(3);
  });

  it('shows a position set before the engine existed at once', () => {
    setPlayerPosition({ x: 1, y: 2, z: 4, look: null });
    const engine = createFakeEngine();
    const off = wirePlayer(engine, factory);
    expect(setPlayerCalls(engine)).toHaveLength(1);
    expect(mapView.level).toBe(2);
    off();
  });

  describe('look arrow', () => {
    const LOOK = { x: 5, y: 6, z: 0, look: 90 };
    const arrow = lookArrowAngle(LOOK.look, factory);
    const arrows = (engine: ReturnType<typeof createFakeEngine>) => setPlayerCalls(engine).map(([marker, ping]) => [marker?.arrowAngle ?? null, ping]);

    it('shows for a pro user with the setting on, and never for visitors or admins', async () => {
      setPlayerPosition(LOOK);
      for (const user of [null, { ...pro, pro: false }, admin]) {
        setSessionUser(user);
        const engine = createFakeEngine();
        const off = wirePlayer(engine, factory);
        expect(arrows(engine)).toEqual([[null, true]]);
        off();
      }
      setSessionUser(pro);
      const engine = createFakeEngine();
      const off = wirePlayer(engine, factory);
      expect(arrows(engine)).toEqual([[arrow, true]]);
      off();
    });

    it('redraws without a ping when the setting is switched, and only when the arrow changes', async () => {
      setSessionUser(pro);
      setPlayerPosition(LOOK);
      const engine = createFakeEngine();
      const off = wirePlayer(engine, factory);
      updateSettings({ lookArrow: false });
      await flush();
      updateSettings({ markerSize: 1.5 });
      await flush();
      updateSettings({ lookArrow: true });
      await flush();
      expect(arrows(engine)).toEqual([
        [arrow, true],
        [null, false],
        [arrow, false],
      ]);
      off();
    });

    it('follows the session: signing out hides the arrow, a pro user signing in gets it back', async () => {
      setSessionUser(pro);
      setPlayerPosition(LOOK);
      const engine = createFakeEngine();
      const off = wirePlayer(engine, factory);
      setSessionUser(null);
      await flush();
      // A session change that does not touch the arrow draws nothing.
      session.progressError = 'offline';
      await flush();
      setSessionUser(pro);
      await flush();
      expect(arrows(engine)).toEqual([
        [arrow, true],
        [null, false],
        [arrow, false],
      ]);
      session.progressError = null;
      off();
    });

    it('keeps a visitor without the arrow whatever the setting says', async () => {
      setPlayerPosition(LOOK);
      const engine = createFakeEngine();
      const off = wirePlayer(engine, factory);
      updateSettings({ lookArrow: false });
      await flush();
      updateSettings({ lookArrow: true });
      await flush();
      expect(arrows(engine)).toEqual([[null, true]]);
      expect(settings.lookArrow).toBe(true);
      off();
    });

    it('draws nothing when there is no position, then the new arrow state with the next position', async () => {
      setSessionUser(pro);
      const engine = createFakeEngine();
      const off = wirePlayer(engine, factory);
      updateSettings({ lookArrow: false });
      await flush();
      expect(setPlayerCalls(engine)).toEqual([]);
      setPlayerPosition(LOOK);
      await flush();
      expect(arrows(engine)).toEqual([[null, true]]);
      off();
    });

    it('stops listening when disposed', async () => {
      setSessionUser(pro);
      setPlayerPosition(LOOK);
      const engine = createFakeEngine();
      const off = wirePlayer(engine, factory);
      off();
      updateSettings({ lookArrow: false });
      setSessionUser(null);
      await flush();
      expect(setPlayerCalls(engine)).toHaveLength(1);
    });
  });
});

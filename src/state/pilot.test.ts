import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../tests/support/fake-event-source';
import { setApiBase } from '../api/client';
import {
  connect,
  disconnect,
  pilot,
  PILOT_CODE_KEY,
  PILOT_GONE_KEY,
  PILOT_MAP_HANDLED_KEY,
  PILOT_STALE_MS,
  reconnect,
  rejectLink,
  rememberedPilotCode,
  resetPilot,
  resume,
  suspend,
  takeMapChange,
} from './pilot';
import { player, setPlayerPosition } from './player';
import { setStorageBackend, type KeyValueStorage } from './storage';

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const CODE = 'ABCDE23456';
const position = (x: number, at: number) => ({ type: 'position', data: { x, y: 2, z: 3, look: 0.5 }, at });
const mapChange = (map: string, at: number) => ({ type: 'map', data: { map }, at });

describe('following a live position feed (state/pilot)', () => {
  let storage: ReturnType<typeof memoryStorage>;
  /** This tab's sessionStorage (kept by reopenPage, as by a reload). */
  let tab: ReturnType<typeof memoryStorage>;
  let lookups: string[];
  let known: boolean;
  /** Seconds of a 429 answer to every lookup (null: no 429). */
  let limitedFor: number | null;

  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    lookups = [];
    known = true;
    limitedFor = null;
    vi.stubGlobal('fetch', async (url: string) => {
      lookups.push(String(url));
      if (limitedFor !== null) {
        const body = { error: 'Too Many Requests', message: 'too many unknown pairing codes', limit: 'guesses', retryAfter: limitedFor };
        return new Response(JSON.stringify(body), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(limitedFor) } });
      }
      return known
        ? new Response(JSON.stringify({ code: CODE, expiresAt: '2030-01-01T00:00:00.000Z', watchers: 3 }), { headers: { 'content-type': 'application/json' } })
        : new Response(JSON.stringify({ error: 'no such pairing' }), { status: 404, headers: { 'content-type': 'application/json' } });
    });
    setApiBase('http://api.test');
    storage = memoryStorage();
    setStorageBackend(storage);
    tab = memoryStorage();
    vi.stubGlobal('sessionStorage', tab);
    setPlayerPosition(null);
  });

  afterEach(() => {
    vi.useRealTimers();
    resetPilot();
    setStorageBackend(null);
    vi.unstubAllGlobals();
  });

  /** The page closes and another map page opens later (module state as after a reload; storage kept). */
  const reopenPage = () => {
    resetPilot();
    FakeEventSource.instances = [];
    lookups = [];
  };

  it('accepts a code as typed (dash, lower case), remembers it and opens its event stream', () => {
    expect(connect('abcde-23456', 'customs')).toBe(true);
    expect(pilot.code).toBe(CODE);
    expect(storage.data.get(PILOT_CODE_KEY)).toBe(CODE);
    expect(rememberedPilotCode()).toBe(CODE);
    expect(FakeEventSource.last().url).toBe(`http://api.test/api/be/pilot/${CODE}/events`);
    expect(pilot.status).toBe('reconnecting');
    FakeEventSource.last().open();
    expect(pilot.status).toBe('connected');
  });

  it('refuses text that is no code and opens nothing', () => {
    expect(connect('hello', 'customs')).toBe(false);
    expect(pilot.code).toBeNull();
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('moves the where-am-I marker with each position and keeps the server time of the last one', () => {
    connect(CODE, 'customs');
    const es = FakeEventSource.last();
    es.open();
    es.send(position(10, 1000), 'pilot');
    expect(player.position).toEqual({ x: 10, y: 2, z: 3, look: 0.5 });
    es.send(position(11, 3000), 'pilot');
    expect(player.position?.x).toBe(11);
    expect(pilot.lastUpdateAt).toBe(3000);
  });

  it('ignores a malformed event and keeps following', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    connect(CODE, 'customs');
    const es = FakeEventSource.last();
    es.send('{not json', 'pilot');
    es.send({ type: 'position', data: { x: 'a' }, at: 1 }, 'pilot');
    expect(player.position).toBeNull();
    es.send(position(5, 10), 'pilot');
    expect(player.position?.x).toBe(5);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('a map change asks the page to go there once, and takes the old map\'s position off the marker', () => {
    connect(CODE, 'customs');
    const es = FakeEventSource.last();
    es.send(mapChange('customs', 1), 'pilot');
    es.send(position(7, 2), 'pilot');
    expect(takeMapChange('customs')).toBeNull();
    expect(player.position?.x).toBe(7);
    es.send(mapChange('woods', 5), 'pilot');
    expect(player.position).toBeNull();
    expect(takeMapChange('customs')).toBe('woods');
    // Answered once: a visitor who goes back to customs by hand stays there.
    expect(takeMapChange('customs')).toBeNull();
    // A position sent before the map change (late) is not drawn on the new map.
    es.send(position(8, 4), 'pilot');
    expect(player.position).toBeNull();
  });

  it('a map chosen by hand stays chosen after a reload of the tab; a new map change by the player moves the page again', () => {
    connect(CODE, 'customs');
    FakeEventSource.last().send(mapChange('woods', 5), 'pilot');
    expect(takeMapChange('customs')).toBe('woods');
    // The visitor went to customs by hand, then reloads (or types /map/factory in this tab).
    reopenPage();
    expect(resume('factory')).toBe(CODE);
    FakeEventSource.last().send(mapChange('woods', 5), 'pilot'); // the server replays the map it holds
    expect(takeMapChange('factory')).toBeNull();
    expect(JSON.parse(tab.data.get(PILOT_MAP_HANDLED_KEY) ?? 'null')).toEqual({ code: CODE, at: 5 });
    // The player changes map: the page follows, as documented.
    FakeEventSource.last().send(mapChange('interchange', 9), 'pilot');
    expect(takeMapChange('factory')).toBe('interchange');
    // Another tab (its own sessionStorage) goes to the player's map.
    reopenPage();
    vi.stubGlobal('sessionStorage', memoryStorage());
    resume('factory');
    FakeEventSource.last().send(mapChange('interchange', 9), 'pilot');
    expect(takeMapChange('factory')).toBe('interchange');
    // Forgetting the code forgets the answer too.
    vi.stubGlobal('sessionStorage', tab);
    disconnect();
    expect(tab.data.has(PILOT_MAP_HANDLED_KEY)).toBe(false);
  });

  it('the stream overlay (always) goes to the player\'s map after a reload of its own address, a map answered before included', () => {
    connect(CODE, 'customs');
    FakeEventSource.last().send(mapChange('factory', 5), 'pilot');
    expect(takeMapChange('customs', true)).toBe('factory');
    // OBS reloads the address it was given (the overlay's first map) in the same tab.
    reopenPage();
    connect(CODE, 'customs');
    FakeEventSource.last().send(mapChange('factory', 5), 'pilot'); // the server replays the map it holds
    expect(takeMapChange('customs', true)).toBe('factory');
    // A normal page in that tab stays on the map opened (its menu offers Go to Factory).
    expect(takeMapChange('customs')).toBeNull();
    // On the player's map, nowhere to go.
    expect(takeMapChange('factory', true)).toBeNull();
    // No map said yet: nowhere either.
    reopenPage();
    connect(CODE, 'customs');
    expect(takeMapChange('customs', true)).toBeNull();
  });

  it('the page map is public state (the top bar compares it with the player\'s map)', () => {
    connect(CODE, 'customs');
    expect(pilot.pageMap).toBe('customs');
    suspend();
    expect(pilot.pageMap).toBeNull();
  });

  it('a position older than PILOT_STALE_MS is stale at once; a fresh one turns stale after it', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const now = Date.now();
    connect(CODE, 'customs');
    FakeEventSource.last().send(position(7, now - 3 * 3600_000), 'pilot');
    expect(player.position?.x).toBe(7);
    expect(pilot.stale).toBe(true);
    FakeEventSource.last().send(position(8, now), 'pilot');
    expect(pilot.stale).toBe(false);
    vi.advanceTimersByTime(PILOT_STALE_MS - 1000);
    expect(pilot.stale).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(pilot.stale).toBe(true);
  });

  it("Stop following, or the session's end, takes the feed's position off the marker; a position set by hand stays", () => {
    connect(CODE, 'customs');
    FakeEventSource.last().open();
    FakeEventSource.last().send(position(7, 2), 'pilot');
    expect(player.position?.x).toBe(7);
    disconnect();
    expect(player.position).toBeNull();
    connect(CODE, 'customs');
    FakeEventSource.last().open();
    FakeEventSource.last().send(position(7, 2), 'pilot');
    FakeEventSource.last().send({ reason: 'deleted' }, 'end');
    expect(pilot.status).toBe('gone');
    expect(player.position).toBeNull();
    // A position the visitor set (a screenshot name) is not the feed's.
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 0 });
    disconnect();
    expect(player.position?.x).toBe(1);
  });

  it('Reconnect on a gone code that is still gone says so (stillGone); a feed that connects clears it', async () => {
    connect(CODE, 'customs');
    FakeEventSource.last().send({ reason: 'expired' }, 'end');
    expect(pilot.status).toBe('gone');
    expect(pilot.endReason).toBe('expired');
    expect(pilot.stillGone).toBe(false);
    known = false;
    reconnect();
    expect(pilot.status).toBe('reconnecting');
    FakeEventSource.last().fail(true);
    await vi.waitFor(() => expect(pilot.status).toBe('gone'));
    expect(pilot.stillGone).toBe(true);
    known = true;
    reconnect();
    expect(pilot.stillGone).toBe(false);
    FakeEventSource.last().open();
    expect(pilot.status).toBe('connected');
    expect(pilot.stillGone).toBe(false);
  });

  it('the same map sent again (a resend after a server restart) keeps the marker and asks the page to go nowhere', () => {
    connect(CODE, 'woods');
    const es = FakeEventSource.last();
    es.send(mapChange('woods', 1), 'pilot');
    es.send(position(7, 2), 'pilot');
    expect(takeMapChange('woods')).toBeNull();
    // The visitor opened customs by hand; the publisher resends woods: not a change, nobody is moved.
    es.send(mapChange('woods', 5), 'pilot');
    expect(player.position?.x).toBe(7);
    expect(pilot.lastPosition?.x).toBe(7);
    expect(pilot.lastUpdateAt).toBe(2);
    expect(takeMapChange('customs')).toBeNull();
    // A map change with no position yet: the old marker goes, the page goes there and waits.
    es.send(mapChange('customs', 9), 'pilot');
    expect(player.position).toBeNull();
    expect(pilot.lastUpdateAt).toBeNull();
    expect(takeMapChange('woods')).toBe('customs');
  });

  it('a position for another map is kept, not drawn, until the page shows that map', () => {
    connect(CODE, 'customs');
    const es = FakeEventSource.last();
    es.send(mapChange('woods', 1), 'pilot');
    es.send(position(9, 2), 'pilot');
    expect(player.position).toBeNull();
    suspend();
    connect(CODE, 'woods');
    FakeEventSource.last().send(mapChange('woods', 1), 'pilot');
    FakeEventSource.last().send(position(9, 2), 'pilot');
    expect(player.position?.x).toBe(9);
  });

  it('when the browser gives up on the stream and the code is unknown, the status is gone and nothing reopens', async () => {
    connect(CODE, 'customs');
    known = false;
    FakeEventSource.last().fail(true);
    await vi.waitFor(() => expect(pilot.status).toBe('gone'));
    expect(lookups.some((url) => url.endsWith(`/api/be/pilot/${CODE}`))).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it("the server's end event (unpaired, expired) is gone at once, with no reconnect", () => {
    connect(CODE, 'customs');
    const es = FakeEventSource.last();
    es.open();
    es.send({ reason: 'deleted' }, 'end');
    expect(pilot.status).toBe('gone');
    // The player ended it: said as such (PilotIndicator), not as "ended, expired or mistyped".
    expect(pilot.endReason).toBe('deleted');
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(lookups).toHaveLength(1); // only the watcher count read on connecting
  });

  it('closing the map page suspends the feed but keeps the code; disconnect forgets it', () => {
    connect(CODE, 'customs');
    const es = FakeEventSource.last();
    suspend();
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
    expect(pilot.status).toBe('off');
    expect(rememberedPilotCode()).toBe(CODE);
    disconnect();
    expect(pilot.code).toBeNull();
    expect(rememberedPilotCode()).toBeNull();
  });

  it('remembers a gone code as gone: later map pages show it gone without asking the server', async () => {
    connect(CODE, 'customs');
    known = false;
    FakeEventSource.last().fail(true);
    await vi.waitFor(() => expect(pilot.status).toBe('gone'));
    expect(storage.data.get(PILOT_GONE_KEY)).toBe(CODE);
    for (const map of ['factory', 'woods', 'customs'] as const) {
      reopenPage();
      expect(resume(map)).toBe(CODE);
      expect(pilot.code).toBe(CODE);
      expect(pilot.status).toBe('gone');
      expect(FakeEventSource.instances).toHaveLength(0);
      expect(lookups).toHaveLength(0);
    }
    // Reconnect (the visitor asked) tries again; a feed that connects is no longer gone.
    known = true;
    reconnect('customs');
    expect(FakeEventSource.instances).toHaveLength(1);
    FakeEventSource.last().open();
    expect(pilot.status).toBe('connected');
    expect(storage.data.has(PILOT_GONE_KEY)).toBe(false);
  });

  it("the server's end event marks the code gone for later pages too; a link to it asks again; Forget clears both", () => {
    connect(CODE, 'customs');
    FakeEventSource.last().open();
    FakeEventSource.last().send({ reason: 'deleted' }, 'end');
    reopenPage();
    resume('woods');
    expect(pilot.status).toBe('gone');
    expect(FakeEventSource.instances).toHaveLength(0);
    // A link or a typed code is the visitor asking: it is looked up again.
    expect(connect(CODE, 'woods')).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(storage.data.has(PILOT_GONE_KEY)).toBe(false);
    FakeEventSource.last().send({ reason: 'expired' }, 'end');
    expect(storage.data.get(PILOT_GONE_KEY)).toBe(CODE);
    disconnect();
    expect(storage.data.has(PILOT_GONE_KEY)).toBe(false);
    expect(rememberedPilotCode()).toBeNull();
  });

  it('a 429 stops the feed until the wait the server asked for is over, also across map pages', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    connect(CODE, 'customs');
    limitedFor = 300;
    FakeEventSource.last().fail(true);
    await vi.waitFor(() => expect(pilot.status).toBe('limited'));
    expect(pilot.retryAt! - Date.now()).toBeGreaterThan(299_000);
    const asked = lookups.length;
    await vi.advanceTimersByTimeAsync(200_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    // Another map page opens meanwhile: it waits too, asking nothing.
    suspend();
    resume('woods');
    expect(pilot.status).toBe('limited');
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(lookups).toHaveLength(asked);
    limitedFor = null;
    await vi.advanceTimersByTimeAsync(pilot.retryAt! - Date.now());
    expect(FakeEventSource.instances).toHaveLength(2);
    FakeEventSource.last().open();
    expect(pilot.status).toBe('connected');
    expect(pilot.retryAt).toBeNull();
  });

  it('a link whose code is no code is said, and the code remembered before is not followed instead', () => {
    connect(CODE, 'customs');
    reopenPage();
    rejectLink('hello-world');
    expect(pilot.linkProblem).toBe('hello-world');
    expect(resume('customs')).toBeNull();
    expect(FakeEventSource.instances).toHaveLength(0);
    // The remembered code is shown, off, for the visitor to pick.
    expect(pilot.code).toBe(CODE);
    expect(pilot.status).toBe('off');
    expect(rememberedPilotCode()).toBe(CODE);
    reconnect('customs');
    expect(pilot.linkProblem).toBeNull();
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});

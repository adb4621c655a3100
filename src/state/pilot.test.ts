import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../tests/support/fake-event-source';
import { setApiBase } from '../api/client';
import { connect, disconnect, pilot, PILOT_CODE_KEY, rememberedPilotCode, resetPilot, suspend, takeMapChange } from './pilot';
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
  let lookups: string[];
  let known: boolean;

  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    lookups = [];
    known = true;
    vi.stubGlobal('fetch', async (url: string) => {
      lookups.push(String(url));
      return known
        ? new Response(JSON.stringify({ code: CODE, expiresAt: '2030-01-01T00:00:00.000Z', watchers: 3 }), { headers: { 'content-type': 'application/json' } })
        : new Response(JSON.stringify({ error: 'no such pairing' }), { status: 404, headers: { 'content-type': 'application/json' } });
    });
    setApiBase('http://api.test');
    storage = memoryStorage();
    setStorageBackend(storage);
    setPlayerPosition(null);
  });

  afterEach(() => {
    resetPilot();
    setStorageBackend(null);
    vi.unstubAllGlobals();
  });

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
});

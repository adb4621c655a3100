import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Marker } from '../domain/marker';
import { setApiBase } from './client';
import { FakeEventSource } from '../../tests/support/fake-event-source';
import { parseMarkerChange, subscribeMarkerChanges, type LiveState, type MarkerChange } from './live';

const marker: Marker = {
  uid: 'm-1', map: 'customs', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 1, y: 2 },
  name: 'Safe', desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [], version: 2,
};

describe('subscribeMarkerChanges', () => {
  let warn: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setApiBase('http://api.test');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    vi.mocked(Math.random).mockRestore?.();
    warn.mockRestore();
    setApiBase('');
  });

  it('opens the map stream, passes valid changes on and reports its state', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const changes: MarkerChange[] = [];
    const states: LiveState[] = [];
    const dispose = subscribeMarkerChanges('customs', (c) => changes.push(c), (s) => states.push(s));
    const es = FakeEventSource.instances[0];
    expect(es.url).toBe('http://api.test/api/be/live/markers?map=customs');
    es.open();
    es.send({ kind: 'upsert', map: 'customs', marker, by: 'admin1' });
    es.send({ kind: 'remove', map: 'customs', uid: 'm-1', version: 3, by: null });
    expect(changes).toEqual([
      { kind: 'upsert', map: 'customs', marker, by: 'admin1' },
      { kind: 'remove', map: 'customs', uid: 'm-1', version: 3, by: null },
    ]);
    // A dropped connection: closed (not left to the browser's own retry), a new one opened
    // 2 s later: reconnecting, then connected again (the page reloads its list then).
    es.fail();
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
    vi.advanceTimersByTime(2000);
    const again = FakeEventSource.last();
    expect(again).not.toBe(es);
    expect(again.url).toBe(es.url);
    again.open();
    dispose();
    expect(states).toEqual(['connected', 'reconnecting', 'connected', 'off']);
    expect(again.readyState).toBe(FakeEventSource.CLOSED);
    es.send({ kind: 'remove', map: 'customs', uid: 'm-1', version: 4, by: null });
    again.send({ kind: 'remove', map: 'customs', uid: 'm-1', version: 4, by: null });
    expect(changes).toHaveLength(2);
  });

  it('ignores and warns about malformed messages', () => {
    const onChange = vi.fn();
    subscribeMarkerChanges('customs', onChange);
    const es = FakeEventSource.instances[0];
    es.open();
    for (const bad of ['not json', { kind: 'upsert', map: 'customs', marker: { uid: 'x' }, by: null }, { kind: 'remove', map: 'customs', uid: 'm-1', version: 1.5, by: null }, { kind: 'other', map: 'customs' }, [1], { kind: 'remove', map: 'woods', uid: 'm-1', version: 1, by: null }, { kind: 'remove', map: 'customs', uid: 'm-1', version: 1, by: 5 }]) {
      es.send(bad);
    }
    expect(onChange).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(7);
  });

  it('drops an event the page already holds before validating it, and passes the others on', () => {
    const changes: MarkerChange[] = [];
    const asked: Array<[string, number]> = [];
    subscribeMarkerChanges('customs', (c) => changes.push(c), undefined, {
      skip: (uid, version) => {
        asked.push([uid, version]);
        return uid === 'm-1' && version <= 2;
      },
    });
    const es = FakeEventSource.instances[0];
    es.open();
    es.send({ kind: 'upsert', map: 'customs', marker, by: 'admin1' }); // version 2: held
    es.send({ kind: 'upsert', map: 'customs', marker: { ...marker, version: 3 }, by: 'admin2' });
    es.send({ kind: 'remove', map: 'customs', uid: 'm-1', version: 2, by: null }); // held
    es.send({ kind: 'remove', map: 'customs', uid: 'm-1', version: 4, by: null });
    // No identity (no version): validated as usual, and refused.
    es.send({ kind: 'upsert', map: 'customs', marker: { uid: 'm-1' }, by: null });
    expect(asked).toEqual([['m-1', 2], ['m-1', 3], ['m-1', 2], ['m-1', 4]]);
    expect(changes.map((c) => (c.kind === 'upsert' ? c.marker.version : c.version))).toEqual([3, 4]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('opens a new stream after the browser gave up on one or the connection was refused, backing off', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const states: LiveState[] = [];
    const dispose = subscribeMarkerChanges('customs', () => {}, (s) => states.push(s));
    FakeEventSource.instances[0].fail(true);
    expect(states).toEqual(['reconnecting']);
    vi.advanceTimersByTime(1999);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    FakeEventSource.instances[1].fail(); // refused: left CONNECTING by the browser, backed off all the same
    vi.advanceTimersByTime(3999);
    expect(FakeEventSource.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    FakeEventSource.instances[2].open();
    expect(states).toEqual(['reconnecting', 'connected']);
    FakeEventSource.instances[2].fail(true);
    dispose();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(3);
    expect(states.at(-1)).toBe('off');
  });

  it('is off where there is no EventSource', () => {
    vi.stubGlobal('EventSource', undefined);
    const states: LiveState[] = [];
    const dispose = subscribeMarkerChanges('customs', () => {}, (s) => states.push(s));
    dispose();
    expect(states).toEqual(['off']);
  });
});

describe('parseMarkerChange', () => {
  it('accepts the two kinds and rejects anything else', () => {
    expect(parseMarkerChange({ kind: 'upsert', map: 'customs', marker, by: null })).toMatchObject({ kind: 'upsert', marker: { uid: 'm-1' } });
    expect(parseMarkerChange({ kind: 'upsert', map: 'woods', marker, by: null })).toBeNull();
    expect(parseMarkerChange({ kind: 'remove', map: 'customs', uid: '', version: 1, by: null })).toBeNull();
    expect(parseMarkerChange(null)).toBeNull();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { MemoryLiveHub, markersChannel } from './hub';

describe('MemoryLiveHub', () => {
  it('delivers to the subscribers of a channel only, as a value and its JSON text', () => {
    const hub = new MemoryLiveHub();
    const customs = vi.fn();
    const woods = vi.fn();
    hub.subscribe(markersChannel('customs'), customs);
    hub.subscribe(markersChannel('woods'), woods);
    const data = { kind: 'remove', uid: 'a', at: new Date(0) };
    hub.publish(markersChannel('customs'), data);
    expect(customs).toHaveBeenCalledTimes(1);
    expect(woods).not.toHaveBeenCalled();
    const [value, json] = customs.mock.calls[0];
    // What another process would get: JSON, parsed again (a Date becomes its text).
    expect(value).toEqual({ kind: 'remove', uid: 'a', at: '1970-01-01T00:00:00.000Z' });
    expect(value).not.toBe(data);
    expect(json).toBe(JSON.stringify(data));
  });

  it('unsubscribes (twice is harmless), counts subscribers and drops them all on close', async () => {
    const hub = new MemoryLiveHub();
    const listener = vi.fn();
    const stop = hub.subscribe('c', listener);
    const again = hub.subscribe('c', listener);
    expect(hub.subscriberCount('c')).toBe(2);
    stop();
    stop();
    expect(hub.subscriberCount('c')).toBe(1);
    hub.publish('c', 1);
    expect(listener).toHaveBeenCalledTimes(1);
    again();
    expect(hub.subscriberCount()).toBe(0);
    hub.subscribe('d', listener);
    await hub.close();
    expect(hub.subscriberCount()).toBe(0);
    hub.subscribe('d', listener);
    hub.publish('d', 2);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps delivering when a listener throws or unsubscribes during delivery', () => {
    const errors: unknown[] = [];
    const hub = new MemoryLiveHub((error) => errors.push(error));
    const after = vi.fn();
    hub.subscribe('c', () => {
      throw new Error('boom');
    });
    const stop = hub.subscribe('c', () => stop());
    hub.subscribe('c', after);
    hub.publish('c', 'x');
    expect(after).toHaveBeenCalledWith('x', '"x"', { remote: false });
    expect(errors).toHaveLength(1);
    expect(hub.subscriberCount('c')).toBe(2);
  });
});

describe('MemoryLiveHub.deliver and gaps', () => {
  it('delivers JSON text as given, marked remote or local, and never reports a gap', () => {
    const hub = new MemoryLiveHub();
    const listener = vi.fn();
    hub.subscribe('c', listener);
    hub.deliver('c', '{"a":1}', true);
    hub.deliver('c', '[2]', false);
    hub.deliver('nobody', 'not even json', true);
    expect(listener.mock.calls).toEqual([
      [{ a: 1 }, '{"a":1}', { remote: true }],
      [[2], '[2]', { remote: false }],
    ]);
    expect(() => hub.deliver('c', 'not json', true)).toThrow(SyntaxError);
    const gap = vi.fn();
    const stop = hub.onGap(gap);
    stop();
    expect(gap).not.toHaveBeenCalled();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { PilotMessage } from '../../src/domain/pilot';
import { PilotApi, type Pairing } from './api';
import { Outbox } from './outbox';
import { Publisher, type PublisherEnd } from './publisher';
import { waitFor } from './test-helpers';

const PAIRING: Pairing = { code: 'ABCDEFGHJK', token: 'tok-1', expiresAt: '2030-01-01T00:00:00.000Z' };
const position = (x: number): PilotMessage & { type: 'position' } => ({ type: 'position', data: { x, y: 1, z: 0, look: null } });

interface Seen {
  url: string;
  auth: string | null;
  body: PilotMessage;
  at: number;
}
type Answer = Response | Error | Promise<Response | Error>;

/** A fetch answering each request with the next of `script` (or 200 { ok, watchers: 1 } when it runs out). */
function fakeFetch(script: ((seen: Seen) => Answer)[] = []) {
  const seen: Seen[] = [];
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    const entry: Seen = {
      url: String(url),
      auth: new Headers(init?.headers).get('authorization'),
      body: JSON.parse(String(init?.body)) as PilotMessage,
      at: Date.now(),
    };
    seen.push(entry);
    const next = script.shift();
    const answer = await (next ? next(entry) : json(200, entry.body.type === 'ping' ? { type: 'pong', watchers: 1 } : { ok: true, watchers: 1 }));
    if (answer instanceof Error) throw answer;
    return answer;
  }) as typeof fetch;
  return { fetchImpl, seen };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const running: { publisher: Publisher; done: Promise<PublisherEnd> }[] = [];
afterEach(async () => {
  for (const { publisher, done } of running.splice(0)) {
    publisher.stop();
    await done;
  }
});

function startPublisher(fetchImpl: typeof fetch, options: { pingMs?: number; rePair?: (signal: AbortSignal) => Promise<Pairing | null> } = {}) {
  const lines: string[] = [];
  const publisher = new Publisher({
    api: new PilotApi({ server: 'http://test', fetch: fetchImpl }),
    pairing: PAIRING,
    log: (line) => lines.push(line),
    rePair: options.rePair ?? (async () => null),
    pingMs: options.pingMs ?? 60_000,
    retry: { baseMs: 20, maxMs: 2000 },
  });
  const done = publisher.run();
  running.push({ publisher, done });
  return { publisher, done, lines };
}

const sentOf = (seen: Seen[], type: PilotMessage['type']) => seen.filter((s) => s.body.type === type);

describe('Publisher', () => {
  it('sends a position at once when idle, with the publisher token, and says how many pages follow', async () => {
    const { fetchImpl, seen } = fakeFetch();
    const { publisher, lines } = startPublisher(fetchImpl);
    await waitFor(() => sentOf(seen, 'ping').length === 1, 2000, 'the first ping');
    await waitFor(() => publisher.watchers === 1);
    const before = Date.now();
    publisher.publish(position(5));
    await waitFor(() => sentOf(seen, 'position').length === 1, 2000, 'the position');
    const sent = sentOf(seen, 'position')[0];
    expect(sent.at - before).toBeLessThan(100);
    expect(sent.url).toBe('http://test/api/be/pilot/ABCDEFGHJK/messages');
    expect(sent.auth).toBe('Bearer tok-1');
    expect(sent.body).toEqual(position(5));
    expect(lines).toContain('1 page follows the code');
  });

  it('coalesces while a send is in flight: the newest position wins, map changes are all sent in order', async () => {
    let release: () => void = () => {};
    const blocked = new Promise<Response>((resolve) => (release = () => resolve(json(200, { ok: true, watchers: 2 }))));
    const { fetchImpl, seen } = fakeFetch([() => json(200, { type: 'pong', watchers: 0 }), () => blocked]);
    const { publisher } = startPublisher(fetchImpl);
    await waitFor(() => publisher.sent.ping === 1);
    publisher.publish(position(1)); // sent at once, then held in flight
    await waitFor(() => seen.length === 2);
    publisher.publish(position(2));
    publisher.publish({ type: 'map', data: { map: 'woods' } });
    publisher.publish(position(3));
    publisher.publish(position(4));
    publisher.publish({ type: 'map', data: { map: 'shoreline' } });
    publisher.publish(position(5));
    publisher.publish(position(6));
    release();
    await waitFor(() => seen.length === 5, 2000, 'the queued messages');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.slice(1).map((s) => s.body)).toEqual([
      position(1),
      { type: 'map', data: { map: 'woods' } },
      { type: 'map', data: { map: 'shoreline' } },
      position(6),
    ]);
    expect(publisher.dropped).toBe(4);
    expect(publisher.maxInFlight).toBe(1);
  });

  it('retries with back-off on connection refused, 503 and 429 (honouring Retry-After)', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { fetchImpl, seen } = fakeFetch([
      () => refused,
      () => refused,
      () => json(503, { error: 'restarting' }),
      () => json(429, { error: 'slow down' }, { 'retry-after': '1' }),
    ]);
    const { publisher, lines } = startPublisher(fetchImpl);
    publisher.publish(position(9));
    await waitFor(() => publisher.sent.position + publisher.sent.ping === 1, 4000, 'a message through');
    // the first message is the ping; the position waited behind it and goes next
    await waitFor(() => publisher.sent.position === 1, 2000, 'the position');
    const gaps = seen.slice(1, 5).map((s, i) => s.at - seen[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(15); // 20 ms
    expect(gaps[1]).toBeGreaterThanOrEqual(35); // 40 ms
    expect(gaps[2]).toBeGreaterThanOrEqual(75); // 80 ms
    expect(gaps[3]).toBeGreaterThanOrEqual(950); // Retry-After: 1 s, longer than the back-off
    expect(lines.filter((l) => l.startsWith('server unreachable, retrying'))).toHaveLength(2);
    expect(lines).toContain('server answered 503, retrying in 1 s');
    expect(lines).toContain('rate-limited, retrying in 1 s');
    expect(lines).toContain('server reachable again');
    expect(sentOf(seen, 'position').at(-1)?.body).toEqual(position(9));
  });

  it('pairs again when the pairing is gone (404) and sends to the new code', async () => {
    const fresh: Pairing = { code: 'MNPQRSTUVW', token: 'tok-2', expiresAt: '2030-01-01T00:00:00.000Z' };
    const { fetchImpl, seen } = fakeFetch([() => json(200, { type: 'pong', watchers: 0 }), () => json(404, { error: 'gone' })]);
    let rePaired = 0;
    const { publisher, lines } = startPublisher(fetchImpl, {
      rePair: async () => {
        rePaired++;
        return fresh;
      },
    });
    await waitFor(() => publisher.sent.ping === 1);
    publisher.publish(position(3));
    await waitFor(() => publisher.sent.position === 1, 2000, 'the position');
    expect(rePaired).toBe(1);
    expect(publisher.pairing).toEqual(fresh);
    const last = seen.at(-1)!;
    expect(last.url).toBe('http://test/api/be/pilot/MNPQRSTUVW/messages');
    expect(last.auth).toBe('Bearer tok-2');
    expect(last.body).toEqual(position(3));
    expect(lines.some((l) => l.includes('pairing again'))).toBe(true);
  });

  it('stops when the server refuses the token (403)', async () => {
    const { fetchImpl } = fakeFetch([() => json(403, { error: 'wrong token' })]);
    const { done, lines } = startPublisher(fetchImpl);
    await expect(done).resolves.toEqual({ reason: 'unauthorized', status: 403 });
    expect(lines.some((l) => l.includes('refused the publisher token (403)'))).toBe(true);
  });

  it('pings every pingMs while idle and says when the number of pages changes', async () => {
    const counts = [0, 0, 2, 2];
    const { fetchImpl, seen } = fakeFetch(counts.map((watchers) => () => json(200, { type: 'pong', watchers })));
    const { lines } = startPublisher(fetchImpl, { pingMs: 40 });
    await waitFor(() => sentOf(seen, 'ping').length >= 5, 4000, 'five pings');
    const pings = sentOf(seen, 'ping');
    for (let i = 1; i < pings.length; i++) expect(pings[i].at - pings[i - 1].at).toBeGreaterThanOrEqual(35);
    expect(lines.filter((l) => l.includes('follow'))).toEqual(['no page follows the code', '2 pages follow the code', '1 page follows the code']);
  });
});

describe('Outbox', () => {
  it('keeps the newest position and every map change, in order', () => {
    const outbox = new Outbox();
    outbox.put(position(1));
    outbox.put({ type: 'map', data: { map: 'woods' } });
    outbox.put({ type: 'map', data: { map: 'woods' } }); // a repeat is not queued twice
    outbox.put(position(2));
    outbox.put({ type: 'map', data: { map: 'lab' } });
    outbox.put(position(3));
    expect(outbox.size).toBe(3);
    expect([outbox.take(), outbox.take(), outbox.take(), outbox.take()]).toEqual([
      { type: 'map', data: { map: 'woods' } },
      { type: 'map', data: { map: 'lab' } },
      position(3),
      null,
    ]);
    expect(outbox.dropped).toBe(2);
  });

  it('puts back a failed message unless something newer took its place', () => {
    const outbox = new Outbox();
    outbox.putBack(position(1));
    expect(outbox.take()).toEqual(position(1));
    outbox.put(position(2));
    outbox.putBack(position(1));
    expect(outbox.take()).toEqual(position(2));
    outbox.put({ type: 'map', data: { map: 'lab' } });
    outbox.putBack({ type: 'map', data: { map: 'woods' } });
    expect(outbox.take()).toEqual({ type: 'map', data: { map: 'woods' } });
    expect(outbox.take()).toEqual({ type: 'map', data: { map: 'lab' } });
  });
});

describe('Publisher after the server lost its map', () => {
  it('sends the map and the last position again when an answer says the server holds no map', async () => {
    let knows = true;
    const { fetchImpl, seen } = fakeFetch(
      Array.from({ length: 10 }, () => (entry: Seen) => {
        if (entry.body.type === 'map') knows = true;
        return json(200, { ok: true, watchers: 1, knowsMap: knows });
      }),
    );
    const { publisher, lines } = startPublisher(fetchImpl);
    const sent = () => seen.filter((s) => s.body.type !== 'ping');
    publisher.publish({ type: 'map', data: { map: 'woods' } });
    publisher.publish({ type: 'position', data: { x: 1, y: 2, z: 3, look: null } });
    await waitFor(() => sent().length >= 2, 2000, 'map and position');
    // The server restarts: the next answer says it holds no map.
    knows = false;
    publisher.publish({ type: 'position', data: { x: 4, y: 5, z: 6, look: null } });
    await waitFor(() => sent().length >= 5, 2000, 'the position, then the map and the position again');
    expect(sent().map((s) => s.body.type)).toEqual(['map', 'position', 'position', 'map', 'position']);
    expect(sent()[3].body).toEqual({ type: 'map', data: { map: 'woods' } });
    // A page shows no position older than its map: the last one follows the map again.
    expect(sent()[4].body).toEqual(sent()[2].body);
    expect(lines.some((l) => l.includes('sending map woods again'))).toBe(true);
    // Known again: nothing more is sent but the next position.
    publisher.publish({ type: 'position', data: { x: 7, y: 8, z: 9, look: null } });
    await waitFor(() => sent().length >= 6, 2000, 'the next position');
    expect(sent().map((s) => s.body.type)).toEqual(['map', 'position', 'position', 'map', 'position', 'position']);
  });
});

describe('Outbox.resendMap', () => {
  it('puts the map first and keeps the waiting position, unless a newer map waits', () => {
    const box = new Outbox();
    box.put({ type: 'position', data: { x: 1, y: 1, z: 1, look: null } });
    box.resendMap({ type: 'map', data: { map: 'woods' } });
    expect(box.take()).toEqual({ type: 'map', data: { map: 'woods' } });
    expect(box.take()).toMatchObject({ type: 'position' });
    box.put({ type: 'map', data: { map: 'factory' } });
    box.resendMap({ type: 'map', data: { map: 'woods' } });
    expect(box.take()).toEqual({ type: 'map', data: { map: 'factory' } });
    expect(box.take()).toBeNull();
  });
});

/**
 * The editor's server round trip: signed in as the demo admin, `requests` adds, then as many
 * updates (each with the version its add returned), then as many deletes (with the version),
 * from Node's fetch on localhost, one at a time; then the same spread over `clients` concurrent
 * clients (each one at a time, all at once). Latency is from the call until the answer's body
 * is read. The deletes put the server back to its seeded markers (their figures are reported,
 * not a target). A short warm-up round is not counted.
 */
import { performance } from 'node:perf_hooks';
import type { Marker } from '../../src/domain/marker';
import { cookieHeader, summariseLatency, type EditorServerResult } from './editor-stats';

export interface ServerBenchOptions {
  baseUrl: string;
  mapId: string;
  run: number;
  requests: number;
  clients: number;
  /** Where new markers go (map pixels); spread inside it. */
  area?: { width: number; height: number };
}

export const DEMO_ADMIN = { name: 'admin', password: 'demo' } as const;

/** Signs in as the demo admin and returns the Cookie header for the session. */
export async function adminCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/be/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  if (!response.ok) {
    throw new Error(
      `signing in as the demo admin failed: HTTP ${response.status} ${await response.text()} (the server needs DEMO_ACCOUNTS=1 and NODE_ENV other than production)`,
    );
  }
  const cookie = cookieHeader(response.headers.getSetCookie());
  if (!cookie) throw new Error('signing in answered no session cookie');
  return cookie;
}

type Op = 'add' | 'update' | 'remove';

class Client {
  constructor(
    private readonly baseUrl: string,
    private readonly cookie: string,
  ) {}

  /** One timed call; throws with the answer when it is not the expected status. */
  private async call<T>(method: string, path: string, body: unknown, expect: number): Promise<{ ms: number; body: T }> {
    const started = performance.now();
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? { cookie: this.cookie, accept: 'application/json' } : { cookie: this.cookie, accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== expect) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
    return { ms, body: JSON.parse(text) as T };
  }

  add(marker: Marker) {
    return this.call<{ marker: Marker }>('POST', '/api/be/admin/marker/add', marker, 201);
  }

  update(marker: Marker) {
    return this.call<{ marker: Marker }>('POST', '/api/be/admin/marker/update', marker, 200);
  }

  remove(uid: string, version: number | undefined) {
    const query = version === undefined ? '' : `?version=${version}`;
    return this.call<{ ok: boolean; version: number }>('DELETE', `/api/be/admin/marker/${encodeURIComponent(uid)}${query}`, undefined, 200);
  }
}

/** A new marker as the marker tool makes one (the default type), at a spread point. */
export function benchMarker(mapId: string, uid: string, i: number, area: { width: number; height: number }): Marker {
  const columns = 37;
  return {
    uid,
    map: mapId,
    category: 'Markers',
    subCategory: 'Marker',
    level: 1,
    geometry: { x: Math.round(((i % columns) + 0.5) * (area.width / columns)), y: Math.round(((Math.floor(i / columns) % 29) + 0.5) * (area.height / 29)) },
    name: '',
    desc: '',
    imgs: [],
    name_l10n: {},
    desc_l10n: {},
    itemsUid: [],
  } as Marker;
}

/** One client's share: adds, then updates (moved by 1 px, with the version), then deletes; latencies per kind. */
async function session(client: Client, markers: Marker[], into: Record<Op, number[]>): Promise<void> {
  const stored: Marker[] = [];
  for (const marker of markers) {
    const { ms, body } = await client.add(marker);
    into.add.push(ms);
    stored.push(body.marker);
  }
  for (let i = 0; i < stored.length; i += 1) {
    const m = stored[i];
    const { ms, body } = await client.update({ ...m, geometry: { x: m.geometry.x + 1, y: m.geometry.y } });
    into.update.push(ms);
    stored[i] = body.marker;
  }
  for (const m of stored) {
    const { ms } = await client.remove(m.uid, m.version);
    into.remove.push(ms);
  }
}

const emptyOps = (): Record<Op, number[]> => ({ add: [], update: [], remove: [] });

export async function measureServer(options: ServerBenchOptions): Promise<EditorServerResult> {
  const { baseUrl, mapId, run, requests, clients } = options;
  const area = options.area ?? { width: 4000, height: 3000 };
  const prefix = `bench-${run}-${Date.now().toString(36)}`;
  const make = (tag: string, count: number, offset = 0) =>
    Array.from({ length: count }, (_, i) => benchMarker(mapId, `${prefix}-${tag}-${i}`, i + offset, area));

  // Warm-up: the server's first calls compile code paths and fill caches.
  const cookie = await adminCookie(baseUrl);
  await session(new Client(baseUrl, cookie), make('warm', 20), emptyOps());

  const sequential = emptyOps();
  await session(new Client(baseUrl, cookie), make('seq', requests), sequential);

  const concurrent = emptyOps();
  const perClient = Math.ceil(requests / clients);
  // Each concurrent client signs in on its own (its own session, as separate admins would).
  const cookies = await Promise.all(Array.from({ length: clients }, () => adminCookie(baseUrl)));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, (_, c) => session(new Client(baseUrl, cookies[c]), make(`c${c}`, perClient, c * perClient), concurrent)),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const total = concurrent.add.length + concurrent.update.length + concurrent.remove.length;

  return {
    run,
    sequential: { add: summariseLatency(sequential.add), update: summariseLatency(sequential.update), remove: summariseLatency(sequential.remove) },
    concurrent: {
      clients,
      add: summariseLatency(concurrent.add),
      update: summariseLatency(concurrent.update),
      remove: summariseLatency(concurrent.remove),
      requestsPerS: total / elapsedS,
    },
  };
}

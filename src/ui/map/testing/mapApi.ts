/**
 * The API a map page calls, mocked for component tests (msw): the factory manifest, a marker
 * list, the quest and item caches and the quest → maps lookup. Tests pass only what they vary.
 */
import { http, HttpResponse } from 'msw';
import type { AccountUser, ProgressChange } from '../../../api/account';
import { COMPACT_BINARY_TYPE, encodeCompactBinary } from '../../../domain/compact-binary';
import { encodeCompactList } from '../../../domain/compact-markers';
import type { Marker } from '../../../domain/marker';
import { SIGNED_IN_COOKIE } from '../../../domain/account';
import type { Item, Quest } from '../../../domain/quests';
import type { TileManifest } from '../../../domain/tiles';

export const TEST_API_BASE = 'http://raidmap.test';

export const factoryManifest: TileManifest = {
  map: 'factory', version: 'abc', tileSize: 256, minZ: 0, maxZ: 8, prebuiltMaxZ: 3,
  width: 3600, height: 3600, layers: ['basement', 'main', 'level2', 'level3'], format: 'webp',
};

export interface MapApiFixture {
  markers: unknown[];
  quests?: Quest[];
  items?: Item[];
  questMaps?: Record<string, string[]>;
}

export function mapApiHandlers({ markers, quests = [], items = [], questMaps = {} }: MapApiFixture) {
  const base = TEST_API_BASE;
  return [
    http.get(`${base}/tiles/factory/manifest.json`, () => HttpResponse.json(factoryManifest)),
    http.get(`${base}/api/be/markers/list`, () => HttpResponse.json({ markers })),
    http.get(`${base}/api/be/markers/compact`, ({ request }) => compactResponse(markers, request)),
    http.get(`${base}/api/be/markers/one`, ({ request }) => {
      const uid = new URL(request.url).searchParams.get('uid');
      const marker = markers.find((m) => (m as { uid?: unknown })?.uid === uid);
      return marker ? HttpResponse.json({ marker }) : HttpResponse.json({ error: 'not_found', message: `no marker "${uid}"` }, { status: 404 });
    }),
    http.get(`${base}/api/be/quests`, () => HttpResponse.json({ quests })),
    http.get(`${base}/api/be/items`, () => HttpResponse.json({ items })),
    http.get(`${base}/api/be/quests/maps`, () => HttpResponse.json({ maps: questMaps })),
  ];
}

/**
 * The compact list the server would send for these markers: those of the asked map, in the
 * fixture's order. Rows are encoded as they are (a fixture's bad marker reaches the worker's
 * checks, which drop and report it, as they would a bad row from a server).
 */
/** The compact list as the server answers it: binary with `format=binary` (the map page's), else JSON. */
export function compactResponse(markers: unknown[], request: Request): Response {
  const list = compactOf(markers, request);
  if (new URL(request.url).searchParams.get('format') !== 'binary') return HttpResponse.json(list);
  const bytes = encodeCompactBinary(list);
  return new HttpResponse(bytes.buffer as ArrayBuffer, { headers: { 'content-type': COMPACT_BINARY_TYPE } });
}

export function compactOf(markers: unknown[], request: Request) {
  const params = new URL(request.url).searchParams;
  const map = params.get('map') ?? '';
  const lang = params.get('lang') === 'ru' ? 'ru' : 'en';
  const rows = markers.flatMap((raw) => {
    const m = raw as Partial<Marker> | null;
    if (!m || typeof m !== 'object' || m.map !== map || !m.geometry) return [];
    return [{ ...m, name: m.name ?? '', name_l10n: m.name_l10n ?? {} } as Marker];
  });
  return encodeCompactList(rows, map, lang);
}

/**
 * The account calls, mocked: a server that knows one user (or nobody, `null`; the signed-in
 * hint cookie is set in the document accordingly, as the real server does), answers
 * GET /api/be/user, sign-in / sign-up / sign-out and progress changes (applied to its stored
 * lists, see withProgressChange), and records every account request so tests can prove that
 * none was made.
 */
export interface MockAccountServer {
  user: AccountUser | null;
  /** Every account request, as "METHOD /path". */
  requests: string[];
  /** Progress bodies received (each a change: `{ done?: { add?, remove? }, hidden?: … }`). */
  progressBodies: unknown[];
  handlers: ReturnType<typeof http.get>[];
}

/** Sets or clears the signed-in hint cookie in the test's document, as the real server does. */
export function setHint(on: boolean): void {
  if (typeof document === 'undefined') return;
  document.cookie = on ? `${SIGNED_IN_COOKIE}=1; path=/` : `${SIGNED_IN_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}


/**
 * A handler for GET /api/be/user answering 500 until `recover()` (then it lets the next handler,
 * e.g. accountServer's, answer), counting the failures: a page load's user check that failed.
 */
export function failingUserCheck(base = TEST_API_BASE) {
  let failing = true;
  const failed = { count: 0 };
  const handler = http.get(`${base}/api/be/user`, () => {
    if (!failing) return undefined;
    failed.count += 1;
    return HttpResponse.json({ error: 'internal', message: 'boom' }, { status: 500 });
  });
  return { handler, failed, recover: () => void (failing = false) };
}
/**
 * `user` after a progress change, applied to the lists as stored now, as the server does
 * (server/routes/progress.ts): what another device saved meanwhile stays. The page sends only
 * changes, so anything else (a whole list, which would write over that save) is refused with
 * the reason, and a test of a page that went back to whole lists fails.
 */
function withProgressChange(user: AccountUser, body: unknown): AccountUser | string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a progress change';
  const change = body as Record<string, unknown>;
  const extra = Object.keys(change).filter((key) => key !== 'done' && key !== 'hidden');
  if (extra.length > 0 || Object.keys(change).length === 0) return `a progress change has only "done" and "hidden", got ${JSON.stringify(body)}`;
  const apply = (stored: string[], name: string): string[] | string => {
    const wanted = (change[name] ?? {}) as NonNullable<ProgressChange['done']>;
    const add = wanted.add ?? [];
    const remove = new Set(wanted.remove ?? []);
    if (add.some((uid) => remove.has(uid))) return `${name}: a quest uid is both added and removed`;
    return [...new Set([...stored.filter((uid) => !remove.has(uid)), ...add])];
  };
  const questsDone = apply(user.questsDone, 'done');
  const questsHidden = apply(user.questsHidden, 'hidden');
  if (typeof questsDone === 'string') return questsDone;
  if (typeof questsHidden === 'string') return questsHidden;
  return { ...user, questsDone, questsHidden };
}

export function accountServer(initial: AccountUser | null, password = 'demo-pass'): MockAccountServer {
  const base = TEST_API_BASE;
  const server: MockAccountServer = { user: initial ? { ...initial } : null, requests: [], progressBodies: [], handlers: [] };
  let signedIn = initial !== null;
  setHint(signedIn);
  const known = initial ? { ...initial } : null;
  const note = (request: Request) => server.requests.push(`${request.method} ${new URL(request.url).pathname}`);
  const unauthorized = () => HttpResponse.json({ error: 'unauthorized', message: 'sign in first' }, { status: 401 });
  server.handlers = [
    http.get(`${base}/api/be/user`, ({ request }) => {
      note(request);
      return signedIn && server.user ? HttpResponse.json(server.user) : unauthorized();
    }),
    http.post(`${base}/api/be/auth/login`, async ({ request }) => {
      note(request);
      const body = (await request.json()) as { name?: string; password?: string };
      if (!known || body.name !== known.name || body.password !== password) {
        return HttpResponse.json({ error: 'unauthorized', message: 'wrong name or password' }, { status: 401 });
      }
      signedIn = true;
      setHint(true);
      server.user = server.user ?? { ...known };
      return HttpResponse.json({ user: server.user });
    }),
    http.post(`${base}/api/be/auth/register`, async ({ request }) => {
      note(request);
      const body = (await request.json()) as { name?: string; password?: string };
      if (known && body.name === known.name) return HttpResponse.json({ error: 'conflict', message: `the name "${body.name}" is taken` }, { status: 409 });
      signedIn = true;
      setHint(true);
      server.user = { name: body.name ?? '', pro: false, admin: false, questsDone: [], questsHidden: [] };
      return HttpResponse.json({ user: server.user }, { status: 201 });
    }),
    http.post(`${base}/api/be/auth/logout`, ({ request }) => {
      note(request);
      signedIn = false;
      setHint(false);
      return HttpResponse.json({ ok: true });
    }),
    http.post(`${base}/api/be/user/progress`, async ({ request }) => {
      note(request);
      if (!signedIn || !server.user) return unauthorized();
      if (!server.user.pro || server.user.admin) return HttpResponse.json({ error: 'forbidden', message: 'saving quest progress is a pro feature' }, { status: 403 });
      const body: unknown = await request.json();
      server.progressBodies.push(body);
      const next = withProgressChange(server.user, body);
      if (typeof next === 'string') return HttpResponse.json({ error: 'bad_request', message: next }, { status: 400 });
      server.user = next;
      return HttpResponse.json(server.user);
    }),
  ];
  return server;
}

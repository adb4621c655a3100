/**
 * Property-based fuzz of every request body, query parameter and path parameter (issue 9,
 * "Tests and numbers"), through `app.inject` on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 *
 * Each route gets arbitrary and near-valid input (wrong types, huge strings, deep nesting,
 * unicode, prototype keys, numbers out of range, malformed JSON, missing and extra fields) as an
 * admin (or the role that reaches the route's validation) and as anonymous. For every answer:
 * - never a 5xx;
 * - a 4xx is JSON `{ error, message }` with both non-empty;
 * - a 400 for a body with one changed field names that field (or the field it is checked with);
 * - a refused request stores nothing: markers (uid, version, updated_at), the history count,
 *   users (flags and progress) and uploaded files are unchanged.
 * Afterwards the marker lists still answer 200 with only valid markers, and `/map/customs`
 * answers the page when a built site exists.
 *
 * Bounded: FUZZ_RUNS runs per route and role (default 150), FUZZ_SEED (default fixed) makes
 * the input repeatable; a failure prints both and fast-check's seed, path and counterexample.
 *   FUZZ_SEED=123 FUZZ_RUNS=500 npx vitest run server/fuzz
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from '../../src/domain/categories';
import { decodeCompactList } from '../../src/domain/compact-markers';
import { MAPS, MAP_IDS, type MapId } from '../../src/domain/maps';
import { validateMarkers, type Marker } from '../../src/domain/marker';
import { INLINE_MANIFEST_ID } from '../../src/domain/tiles';
import { buildServer } from '../app';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import { REPO_ROOT } from '../config';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { sampleItems } from '../seed/items';
import { sampleQuests } from '../seed/quests';
import { tempDir, testBackends } from '../testing/databases';
import {
  INVALID_TOKENS,
  Obj,
  RAW_NUMBERS,
  applyMutation,
  encode,
  hostileString,
  jsonText,
  mutatedField,
  mutation,
  notAnObjectBody,
  pathSegment,
  queryString,
  type Json,
  type Mutation,
} from './hostile';

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
  return value;
}

const SEED = envInt('FUZZ_SEED', 20_261_124, -(2 ** 31));
const RUNS = envInt('FUZZ_RUNS', 150, 1);
/** Anonymous calls to guarded routes all stop at the guard: fewer runs say as much. */
const ANON_RUNS = Math.max(1, Math.ceil(RUNS / 4));

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex');
const PASSWORD = 'fuzz-Password-1';
const QUESTS = sampleQuests();
const QUEST_UIDS = QUESTS.map((q) => q.uid);
const ITEM_UIDS = sampleItems().map((i) => i.uid);
const TARGET_UPDATE = 'fz-update';
const TARGET_DELETE = 'fz-delete';
const TARGET_UPLOAD = 'fz-upload';

const MARKER_FIELDS = ['uid', 'map', 'category', 'subCategory', 'level', 'geometry', 'name', 'desc', 'imgs', 'name_l10n', 'desc_l10n', 'questUid', 'itemsUid', 'version'];
/** A 400 for a changed marker field may name the field it is checked with. */
const MARKER_RELATED: Record<string, string[]> = {
  map: ['map', 'geometry'],
  category: ['category', 'subCategory'],
  subCategory: ['subCategory', 'category'],
};

function storedMarker(uid: string, overrides: Partial<Marker> = {}): Marker {
  return {
    uid, map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 100, y: 120 },
    name: `Marker ${uid}`, desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [],
    ...overrides,
  } as Marker;
}

/** A valid marker body (uid left to the route): any map, a known category pair, inside the map. */
const validMarker: fc.Arbitrary<Obj> = fc
  .record({
    map: fc.constantFrom(...MAP_IDS),
    sub: fc.constantFrom(...SUBCATEGORIES),
    level: fc.integer({ min: -5, max: 10 }),
    fx: fc.double({ min: 0, max: 1, noNaN: true }),
    fy: fc.double({ min: 0, max: 1, noNaN: true }),
    name: fc.string({ maxLength: 30 }),
    desc: fc.string({ unit: 'grapheme', maxLength: 60 }),
    ru: fc.option(fc.constantFrom('Сейф', 'Тайник', 'Ящик'), { nil: undefined }),
    imgs: fc.array(fc.record({ img: fc.constantFrom('/uploads/sample/safe-1.webp', 'http://localhost/uploads/markers/a.webp', 'img/b.png'), name: fc.string({ maxLength: 10 }), desc: fc.string({ maxLength: 10 }) }), { maxLength: 2 }),
    questUid: fc.option(fc.constantFrom(...QUEST_UIDS), { nil: null }),
    itemsUid: fc.uniqueArray(fc.constantFrom(...ITEM_UIDS), { maxLength: 3 }),
  })
  .map((r) => {
    const { width, height } = MAPS[r.map as MapId].size;
    return Obj.of({
      map: r.map, category: r.sub.category, subCategory: r.sub.id, level: r.level,
      geometry: { x: Math.round(r.fx * width * 10) / 10, y: Math.round(r.fy * height * 10) / 10 },
      name: r.name, desc: r.desc, imgs: r.imgs,
      name_l10n: r.ru ? { en: r.name, ru: r.ru } : {}, desc_l10n: {}, questUid: r.questUid, itemsUid: r.itemsUid,
    });
  });

/** How a body is made from a route's valid base. */
type BodyPlan =
  | { kind: 'valid' }
  | { kind: 'mutate'; mutations: Mutation[] }
  | { kind: 'token'; field: string; token: string }
  | { kind: 'whole'; text: string };

interface Envelope {
  contentType: string | undefined;
  origin: string | undefined;
}

const envelope: fc.Arbitrary<Envelope> = fc.record({
  contentType: fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 16 },
    {
      arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', ''),
      weight: 3,
    },
    { arbitrary: fc.constant(undefined), weight: 1 },
  ),
  origin: fc.oneof({ arbitrary: fc.constant(undefined), weight: 16 }, { arbitrary: fc.constantFrom('http://evil.example', 'null', 'http://localhost:80', 'http://localhost', '\u0000'), weight: 1 }),
});

function bodyPlan(fields: readonly string[], numeric: readonly string[]): fc.Arbitrary<BodyPlan> {
  const plans: fc.WeightedArbitrary<BodyPlan>[] = [
    { arbitrary: fc.constant({ kind: 'valid' as const }), weight: 1 },
    { arbitrary: mutation(fields).map((m) => ({ kind: 'mutate' as const, mutations: [m] })), weight: 8 },
    { arbitrary: fc.array(mutation(fields), { minLength: 2, maxLength: 4 }).map((mutations) => ({ kind: 'mutate' as const, mutations })), weight: 2 },
    { arbitrary: notAnObjectBody.map((text) => ({ kind: 'whole' as const, text })), weight: 2 },
  ];
  if (numeric.length > 0) {
    plans.push({
      arbitrary: fc.record({ kind: fc.constant('token' as const), field: fc.constantFrom(...numeric), token: fc.constantFrom(...RAW_NUMBERS, ...INVALID_TOKENS) }),
      weight: 1,
    });
  }
  return fc.oneof(...plans);
}

/** The body text, and the fields one of which a 400 should name (null: the body as a whole). */
function renderBody(plan: BodyPlan, base: Obj): { text: string; fields: string[] | null; malformed: boolean } {
  switch (plan.kind) {
    case 'valid':
      return { text: jsonText(base), fields: null, malformed: false };
    case 'whole':
      return { text: plan.text, fields: null, malformed: true };
    case 'token': {
      // A numeric field (or geometry.x) replaced by a raw token: 1e999 parses to Infinity, NaN is not JSON.
      const [top, sub] = plan.field.split('.');
      const placeholder = '@@fuzz-token@@';
      const value = sub ? Obj.of({ ...(plainObject(base.get(top)) ?? {}), [sub]: placeholder }) : placeholder;
      const text = jsonText(base.with(top, value)).replace(JSON.stringify(placeholder), plan.token);
      return { text, fields: [top], malformed: INVALID_TOKENS.includes(plan.token) };
    }
    case 'mutate': {
      let body = base;
      for (const m of plan.mutations) body = applyMutation(body, m);
      return { text: jsonText(body), fields: plan.mutations.map(mutatedField), malformed: false };
    }
  }
}

function plainObject(value: Json | undefined): Record<string, Json> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Obj) ? (value as Record<string, Json>) : undefined;
}

interface ErrorAnswer {
  error?: unknown;
  message?: unknown;
  field?: unknown;
}

function describeRequest(req: InjectOptions): string {
  const body = typeof req.payload === 'string' ? req.payload : '';
  const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
  return `${req.method} ${String(req.url).slice(0, 400)} ${JSON.stringify(req.headers ?? {}).slice(0, 300)} ${shown}`;
}

/** Never a 5xx; a 4xx is JSON { error, message }. Returns the parsed error body (or undefined). */
function checkAnswer(res: LightMyRequestResponse, req: InjectOptions): ErrorAnswer | undefined {
  const what = `${describeRequest(req)}\n→ ${res.statusCode} ${res.body.slice(0, 400)}`;
  expect(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode < 400) return undefined;
  expect(String(res.headers['content-type']), what).toMatch(/^application\/json/);
  if (req.method === 'HEAD') return undefined;
  const body = res.json() as ErrorAnswer;
  expect(typeof body.error === 'string' && body.error.length > 0, `error missing: ${what}`).toBe(true);
  expect(typeof body.message === 'string' && body.message.length > 0, `message missing: ${what}`).toBe(true);
  return body;
}

/** Whether the error names one of `fields` (or, for a prototype key, says so). */
function namesAField(body: ErrorAnswer, fields: readonly string[], related: Record<string, string[]>): boolean {
  const text = `${String(body.message)} ${typeof body.field === 'string' ? body.field : ''}`;
  return fields.some((field) => {
    if ((field === '__proto__' || field === 'constructor') && /prototype/i.test(text)) return true;
    return (Object.hasOwn(related, field) ? related[field] : [field]).some((name) => text.includes(name) || text.includes(JSON.stringify(name).slice(1, -1)));
  });
}

/** A prototype key anywhere in a body's text, which Fastify's JSON parser refuses outright. */
const PROTO_KEY_IN_TEXT = /"(__proto__|constructor)"\s*:/;
/** The body parser's refusal of a prototype key names it (server/http/json-body.ts). */
const NAMES_PROTO_KEY = /^body: a key named "(__proto__|constructor)"/;

async function fuzz<T>(name: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, numRuns = RUNS): Promise<void> {
  try {
    await fc.assert(fc.asyncProperty(arbitrary, predicate), { seed: SEED, numRuns });
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(`fuzz "${name}" failed with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} (replay: FUZZ_SEED=${SEED} npx vitest run server/fuzz)\n${message.length > 20_000 ? `${message.slice(0, 20_000)}…` : message}`, { cause: error });
  }
}

describe.each(testBackends())('request fuzz on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let uploadsDir: string;
  let indexHtml: Buffer | undefined;
  const cookies: Record<'visitor' | 'pro' | 'admin', string> = { visitor: '', pro: '', admin: '' };
  /** Routes whose 400 did not name the changed field: route → example messages (reported, then failed). */
  const unnamed = new Map<string, string[]>();
  let serial = 0;

  /** Answers by route and status, printed with FUZZ_STATS=1 (to see what the input reached). */
  const statuses = new Map<string, Map<number, number>>();
  const inject = async (req: InjectOptions) => {
    const res = await app.inject(req);
    const route = String(req.url).split('?', 1)[0].replace(/^\/api\/be\/admin\/marker\/(?!add$|update$)[^/]*/, '/api/be/admin/marker/:uid').replace(/^\/(tiles|icons|uploads|map|assets)\/.*$/, '/$1/…');
    const key = `${req.method} ${route.length > 60 ? `${route.slice(0, 60)}…` : route}`;
    const counts = statuses.get(key) ?? new Map<number, number>();
    counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
    statuses.set(key, counts);
    return res;
  };

  async function snapshot(): Promise<string> {
    const markers = await db.kysely.selectFrom('markers').select(['uid', 'version', 'updated_at']).orderBy('uid').execute();
    const history = await db.kysely.selectFrom('marker_history').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    const users = (await repos.users.list()).map((u) => ({ name: u.name, pro: u.pro, admin: u.admin, done: u.questsDone, hidden: u.questsHidden }));
    const dir = path.join(uploadsDir, 'markers');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    return JSON.stringify({ markers, history: Number(history.n), users, files });
  }

  function cookieOf(res: LightMyRequestResponse): string {
    const raw = res.headers['set-cookie'];
    const line = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!line) throw new Error(`no session cookie set: ${res.statusCode} ${res.body}`);
    return line.split(';')[0];
  }

  beforeAll(async () => {
    root = tempDir('raidmap-fuzz-');
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    await repos.quests.insertMany(QUESTS);
    await repos.items.insertMany(sampleItems());
    await repos.markers.insertMany([
      storedMarker('fz-list-1', { map: 'customs' }),
      storedMarker('fz-list-2', { questUid: QUEST_UIDS[0], itemsUid: ITEM_UIDS.slice(0, 2), extraStuff: { a: [1, 2] } } as Partial<Marker>),
    ]);
    await repos.markers.insert(storedMarker(TARGET_UPDATE));
    await repos.markers.insert(storedMarker(TARGET_DELETE, { map: 'customs' }));
    await repos.markers.insert(storedMarker(TARGET_UPLOAD));
    const hash = await hashPassword(PASSWORD);
    await repos.users.create({ name: 'visitor1', passwordHash: hash });
    await repos.users.create({ name: 'pro1', passwordHash: hash, pro: true });
    await repos.users.create({ name: 'admin1', passwordHash: hash, admin: true });
    await repos.users.create({ name: 'target1', passwordHash: hash });
    uploadsDir = path.join(root, 'uploads');
    // A copy of the built page (a parallel `vite build` may empty dist/ at any moment).
    const builtIndex = path.join(REPO_ROOT, 'dist', 'index.html');
    const distDir = path.join(root, 'dist');
    if (fs.existsSync(builtIndex)) {
      indexHtml = fs.readFileSync(builtIndex);
      fs.mkdirSync(distDir, { recursive: true });
      fs.writeFileSync(path.join(distDir, 'index.html'), indexHtml);
    }
    app = buildServer({
      db,
      repos,
      uploadsDir,
      distDir,
      tilesDir: path.join(root, 'tiles'),
      // No tile is rendered on request: a refused render answers a parent tile or 429.
      tileCache: { rendersPerMinute: 0 },
      // Sign-in delays are real waits; the fuzz checks answers, not timing.
      auth: { sleep: async () => {} },
    });
    await app.ready();
    for (const [role, name] of [['visitor', 'visitor1'], ['pro', 'pro1'], ['admin', 'admin1']] as const) {
      const res = await inject({ method: 'POST', url: '/api/be/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name, password: PASSWORD }) });
      expect(res.statusCode, res.body).toBe(200);
      cookies[role] = cookieOf(res);
    }
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
    if (process.env.FUZZ_STATS === '1') {
      const lines = [...statuses].filter(([, c]) => [...c.values()].reduce((a, b) => a + b, 0) > 3).sort(([a], [b]) => a.localeCompare(b));
      console.log(`[fuzz ${backend.name}] answers by route:\n${lines.map(([route, c]) => `  ${route}: ${[...c].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`).join('\n')}`);
    }
    if (unnamed.size > 0) {
      console.warn(`[fuzz ${backend.name}] 400 answers that did not name the changed field:\n${[...unnamed].map(([route, messages]) => `  ${route}: ${messages.slice(0, 5).join(' | ')}`).join('\n')}`);
    }
  });

  interface BodyRoute {
    name: string;
    method: 'POST' | 'DELETE';
    url: string;
    /** The cookie that gets past the route's permission check. */
    role: 'admin' | 'pro' | 'anonymous';
    /** Whether anonymous callers are refused before the body is read. */
    guarded: boolean;
    base: fc.Arbitrary<Obj>;
    /** Runs at request time: fills what depends on stored state (the target's version, a fresh uid). */
    prepare?: (base: Obj) => Promise<Obj>;
    fields: readonly string[];
    numeric?: readonly string[];
    related?: Record<string, string[]>;
    /** Runs after an accepted (2xx) request, to keep the target in place for the next run. */
    restore?: () => Promise<void>;
  }

  const bodyRoutes = (): BodyRoute[] => [
    {
      name: 'marker add',
      method: 'POST',
      url: '/api/be/admin/marker/add',
      role: 'admin',
      guarded: true,
      base: validMarker,
      prepare: async (base) => base.with('uid', `fz-add-${++serial}`),
      fields: MARKER_FIELDS,
      numeric: ['level', 'geometry.x', 'geometry.y'],
      related: MARKER_RELATED,
    },
    {
      name: 'marker update',
      method: 'POST',
      url: '/api/be/admin/marker/update',
      role: 'admin',
      guarded: true,
      base: validMarker,
      prepare: async (base) => base.with('uid', TARGET_UPDATE).with('version', (await repos.markers.get(TARGET_UPDATE))!.version ?? 1),
      fields: MARKER_FIELDS,
      numeric: ['level', 'version', 'geometry.x', 'geometry.y'],
      related: MARKER_RELATED,
    },
    {
      name: 'image upload',
      method: 'POST',
      url: '/api/be/admin/maps/marker/upload/base64',
      role: 'admin',
      guarded: true,
      base: fc
        .record({ index: fc.integer({ min: 0, max: 1 }), dataUrl: fc.boolean() })
        .map(({ index, dataUrl }) => Obj.of({ uid: `${TARGET_UPLOAD}-${index}`, map: 'factory', base64: `${dataUrl ? 'data:image/png;base64,' : ''}${PNG.toString('base64')}` })),
      prepare: async (base) => {
        // The target is re-made without images when an earlier run filled its 20 places; the
        // base replaces an image it has or appends one.
        let target = (await repos.markers.get(TARGET_UPLOAD))!;
        if (target.imgs.length >= 19) {
          await repos.markers.update({ ...target, imgs: [] });
          target = (await repos.markers.get(TARGET_UPLOAD))!;
        }
        const index = Math.min(Number(String(base.get('uid')).split('-').pop()), target.imgs.length);
        return base.with('uid', `${TARGET_UPLOAD}-${index}`);
      },
      fields: ['uid', 'map', 'base64'],
    },
    {
      name: 'users pro',
      method: 'POST',
      url: '/api/be/admin/users/pro',
      role: 'admin',
      guarded: true,
      base: fc.boolean().map((pro) => Obj.of({ name: 'target1', pro })),
      fields: ['name', 'pro'],
    },
    {
      name: 'user progress',
      method: 'POST',
      url: '/api/be/user/progress',
      role: 'pro',
      guarded: true,
      base: fc
        .tuple(fc.constantFrom('questsDone', 'questsHidden'), fc.uniqueArray(fc.constantFrom(...QUEST_UIDS), { maxLength: 5 }))
        .map(([key, uids]) => Obj.of({ [key]: uids })),
      fields: ['questsDone', 'questsHidden'],
    },
    {
      name: 'sign-up',
      method: 'POST',
      url: '/api/be/auth/register',
      role: 'anonymous',
      guarded: false,
      base: fc.constant(Obj.of({ name: 'x', password: 'Quartz-Lantern-Ostrich-8812' })),
      prepare: async (base) => base.with('name', `fz_user_${++serial}`),
      fields: ['name', 'password'],
      // The password is refused for holding the name.
      related: { name: ['name', 'password'] },
    },
    {
      name: 'sign-in',
      method: 'POST',
      url: '/api/be/auth/login',
      role: 'anonymous',
      guarded: false,
      base: fc.constantFrom(Obj.of({ name: 'visitor1', password: 'not-the-password' }), Obj.of({ name: 'nobody', password: PASSWORD })),
      fields: ['name', 'password'],
    },
    {
      name: 'sign-out',
      method: 'POST',
      url: '/api/be/auth/logout',
      role: 'anonymous',
      guarded: false,
      base: fc.constant(Obj.of({})),
      fields: ['x'],
    },
  ];

  /** Sends a body to a route; checks the answer and that a refusal stored nothing. */
  async function sendBody(route: BodyRoute, cookie: string, plan: BodyPlan, env: Envelope, baseValue: Obj): Promise<void> {
    const base = route.prepare ? await route.prepare(baseValue) : baseValue;
    const { text, fields, malformed } = renderBody(plan, base);
    const headers: Record<string, string> = {};
    if (env.contentType !== undefined) headers['content-type'] = env.contentType;
    if (env.origin !== undefined) headers.origin = env.origin;
    if (cookie) headers.cookie = cookie;
    const req: InjectOptions = { method: route.method, url: route.url, headers, payload: text };
    const before = await snapshot();
    const res = await inject(req);
    const error = checkAnswer(res, req);
    if (res.statusCode >= 300) {
      expect(await snapshot(), `a refused request changed stored state: ${describeRequest(req)} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBe(before);
    } else if (route.restore) {
      await route.restore();
    }
    const plainJson = env.contentType === 'application/json' && env.origin === undefined && !malformed;
    // A prototype key anywhere in the body is refused by the parser, which names the key.
    if (res.statusCode === 400 && error && PROTO_KEY_IN_TEXT.test(text) && NAMES_PROTO_KEY.test(String(error.message))) return;
    if (res.statusCode === 400 && error && fields && plainJson && !namesAField(error, fields, route.related ?? {})) {
      const list = unnamed.get(route.name) ?? [];
      list.push(`[${fields.join(', ')}] → ${String(error.message).slice(0, 160)}`);
      unnamed.set(route.name, list);
    }
  }

  for (const routeSpec of bodyRoutes()) {
    it(`${routeSpec.name}: hostile bodies as ${routeSpec.role} never 5xx, refuse with JSON naming the field, store nothing when refused`, async () => {
      const cookie = routeSpec.role === 'anonymous' ? '' : cookies[routeSpec.role];
      const arbitrary = fc.tuple(bodyPlan(routeSpec.fields, routeSpec.numeric ?? []), envelope, routeSpec.base);
      await fuzz(`${routeSpec.name} (${routeSpec.role})`, arbitrary, ([plan, env, base]) => sendBody(routeSpec, cookie, plan, env, base));
      const examples = unnamed.get(routeSpec.name);
      expect((examples ?? []).join('\n'), `${routeSpec.name}: 400 answers that do not name the changed field`).toBe('');
    });
    if (routeSpec.guarded) {
      it(`${routeSpec.name}: anonymous and visitor callers are refused before the body (401/403 JSON), nothing stored`, async () => {
        const arbitrary = fc.tuple(bodyPlan(routeSpec.fields, routeSpec.numeric ?? []), envelope, routeSpec.base, fc.constantFrom('', cookies.visitor, `${SESSION_COOKIE}=forged`, `${SESSION_COOKIE}=`));
        await fuzz(`${routeSpec.name} (anonymous)`, arbitrary, async ([plan, env, base, cookie]) => {
          const { text } = renderBody(plan, base);
          const headers: Record<string, string> = env.contentType !== undefined ? { 'content-type': env.contentType } : {};
          if (cookie) headers.cookie = cookie;
          const req: InjectOptions = { method: routeSpec.method, url: routeSpec.url, headers, payload: text };
          const before = await snapshot();
          const res = await inject(req);
          checkAnswer(res, req);
          // Signed out: 401 before the body is read (or 415 for a body that is not JSON). A
          // visitor's body may be read (and refused as malformed) before the role check; never a success.
          const allowed = cookie === cookies.visitor ? [400, 403, 413, 415] : [401, 415];
          expect(allowed, `${describeRequest(req)} → ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
          expect(await snapshot()).toBe(before);
        }, ANON_RUNS);
      });
    }
  }

  it('marker delete: hostile uids and ?version= never 5xx; refused deletes store nothing', async () => {
    const version = fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 2 },
      { arbitrary: fc.constantFrom('current', 'stale'), weight: 3 },
      { arbitrary: hostileString.filter((s) => s.length < 3000), weight: 3 },
      { arbitrary: fc.constantFrom('-1', '1.5', '1e3', '0x1', '999999999999999', '9999999999999999', '2147483648', ' 1', '1 ', 'NaN', ''), weight: 2 },
    );
    const arbitrary = fc.tuple(pathSegment([TARGET_DELETE, TARGET_DELETE, 'fz-none']), version, fc.boolean(), fc.constantFrom<'admin' | 'anonymous' | 'visitor'>('admin', 'admin', 'admin', 'anonymous', 'visitor'));
    await fuzz('marker delete', arbitrary, async ([uid, v, twice, role]) => {
      let stored = await repos.markers.get(TARGET_DELETE);
      if (!stored) {
        await repos.markers.insert(storedMarker(TARGET_DELETE, { map: 'customs' }));
        stored = (await repos.markers.get(TARGET_DELETE))!;
      }
      const value = v === 'current' ? String(stored.version) : v === 'stale' ? String((stored.version ?? 1) + 7) : v;
      const query = value === undefined ? '' : `?version=${encode(value)}${twice ? `&version=${encode(value)}` : ''}`;
      const cookie = role === 'anonymous' ? undefined : cookies[role];
      const req: InjectOptions = { method: 'DELETE', url: `/api/be/admin/marker/${uid}${query}`, headers: cookie ? { cookie } : {} };
      const before = await snapshot();
      const res = await inject(req);
      checkAnswer(res, req);
      if (res.statusCode >= 300) expect(await snapshot(), describeRequest(req)).toBe(before);
      // Never a success for anyone else (`..` leaves the route: 404; a malformed or long URL: 400, 414).
      if (role !== 'admin') expect(res.statusCode, describeRequest(req)).toBeGreaterThanOrEqual(400);
    });
  });

  it('marker history: hostile uids never 5xx', async () => {
    const arbitrary = fc.tuple(pathSegment([TARGET_UPDATE, 'fz-none']), fc.constantFrom<'admin' | 'anonymous'>('admin', 'admin', 'anonymous'), queryString(['limit', 'uid'], hostileString));
    await fuzz('marker history', arbitrary, async ([uid, role, qs]) => {
      const req: InjectOptions = { method: 'GET', url: `/api/be/admin/marker/${uid}/history?${qs}`, headers: role === 'admin' ? { cookie: cookies.admin } : {} };
      const res = await inject(req);
      checkAnswer(res, req);
      if (res.statusCode === 200) expect(Array.isArray((res.json() as { history: unknown }).history)).toBe(true);
    });
  });

  const mapValue = fc.oneof({ arbitrary: fc.constantFrom(...MAP_IDS, ' customs ', 'Customs', 'customs\u0000'), weight: 1 }, { arbitrary: hostileString.filter((s) => s.length < 5000), weight: 3 });
  const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 });
  const acceptEncoding = fc.oneof(fc.constantFrom('br, gzip', 'gzip', 'br', 'deflate', '*', 'identity', 'identity;q=0', 'gzip;q=0, br;q=0', 'br;q=NaN', 'x'.repeat(8000)), headerText);
  const ifNoneMatch = fc.oneof(fc.constant(undefined), fc.constantFrom('*', '""', '"abc"', 'W/"x"', '"x-br", "y-gz"'), headerText);

  it('marker list: hostile queries and headers never 5xx; errors name the parameter', async () => {
    const arbitrary = fc.tuple(queryString(['map', 'version', 'since', 'lang'], mapValue), acceptEncoding, ifNoneMatch, fc.boolean());
    await fuzz('marker list', arbitrary, async ([qs, encoding, etag, admin]) => {
      const headers: Record<string, string> = { 'accept-encoding': encoding };
      if (etag !== undefined) headers['if-none-match'] = etag;
      if (admin) headers.cookie = cookies.admin;
      const req: InjectOptions = { method: 'GET', url: `/api/be/markers/list?${qs}`, headers };
      const res = await inject(req);
      const error = checkAnswer(res, req);
      if (res.statusCode === 400) expect(String(error?.message), describeRequest(req)).toMatch(/map|query|URI|url/i);
    });
  });

  it('compact marker list and one marker (issue 11): hostile queries and headers never 5xx; errors name the parameter', async () => {
    const langValue = fc.oneof(fc.constantFrom('en', 'ru', 'EN', 'de', '', 'ru\u0000'), hostileString.filter((s) => s.length < 5000));
    const compact = fc.tuple(queryString(['map', 'lang'], fc.oneof(mapValue, langValue)), acceptEncoding, ifNoneMatch, fc.boolean());
    await fuzz('compact marker list', compact, async ([qs, encoding, etag, admin]) => {
      const headers: Record<string, string> = { 'accept-encoding': encoding };
      if (etag !== undefined) headers['if-none-match'] = etag;
      if (admin) headers.cookie = cookies.admin;
      const req: InjectOptions = { method: 'GET', url: `/api/be/markers/compact?${qs}`, headers };
      const res = await inject(req);
      const error = checkAnswer(res, req);
      if (res.statusCode === 400) expect(String(error?.message), describeRequest(req)).toMatch(/map|lang|query|URI|url/i);
    });
    const one = fc.tuple(queryString(['uid'], fc.oneof(fc.constantFrom(TARGET_UPDATE, 'fz-none', 'a\u0000b'), hostileString)), fc.boolean());
    await fuzz('one marker', one, async ([qs, admin]) => {
      const req: InjectOptions = { method: 'GET', url: `/api/be/markers/one?${qs}`, headers: admin ? { cookie: cookies.admin } : {} };
      const res = await inject(req);
      const error = checkAnswer(res, req);
      if (res.statusCode === 400) expect(String(error?.message), describeRequest(req)).toMatch(/uid|query|URI|url/i);
      if (res.statusCode === 200) expect(typeof (res.json() as { marker: { uid: unknown } }).marker.uid).toBe('string');
    });
  });

  it('live stream: hostile queries never 5xx (valid ones asked with HEAD, so no stream stays open)', async () => {
    const arbitrary = fc.tuple(queryString(['map'], mapValue), fc.boolean());
    await fuzz('live markers', arbitrary, async ([qs, admin]) => {
      // A query that may open a stream (it names a map anywhere, decoded or not) is asked with
      // HEAD: the same validation, and no stream stays open.
      let decoded = qs;
      try {
        decoded = decodeURIComponent(qs.replace(/\+/g, ' '));
      } catch {
        // malformed percent-encoding: the raw text is checked
      }
      const mayStream = MAP_IDS.some((id) => qs.toLowerCase().includes(id) || decoded.toLowerCase().includes(id));
      const req: InjectOptions = { method: mayStream ? 'HEAD' : 'GET', url: `/api/be/live/markers?${qs}`, headers: admin ? { cookie: cookies.admin } : {} };
      const res = await Promise.race([
        inject(req),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in 5 s (a stream opened?): ${describeRequest(req)}`)), 5000)),
      ]);
      checkAnswer(res, req);
    });
  });

  it('other GET routes: hostile queries, cookies and headers never 5xx', async () => {
    const paths = ['/api/be/health', '/api/be/quests', '/api/be/items', '/api/be/quests/maps', '/api/be/user', '/api/be/admin/users', '/api/be/metrics'];
    const cookie = fc.oneof(
      fc.constantFrom('', cookies.admin, cookies.pro, cookies.visitor),
      headerText.map((t) => `${SESSION_COOKIE}=${t}`),
      fc.constantFrom(`${SESSION_COOKIE}=; ${SESSION_COOKIE}=x`, `raidmap_signed_in=1`, `${SESSION_COOKIE}=${'a'.repeat(5000)}`, '=', ';;;', `${SESSION_COOKIE}="\\"`),
    );
    const authorization = fc.oneof(fc.constant(undefined), fc.constantFrom('Bearer ', 'Bearer x', 'Basic YWRtaW46ZGVtbw==', 'bearer', ''), headerText);
    const arbitrary = fc.tuple(fc.constantFrom(...paths), queryString(['map', 'format', 'name'], hostileString), cookie, acceptEncoding, ifNoneMatch, authorization);
    await fuzz('GET routes', arbitrary, async ([p, qs, c, encoding, etag, auth]) => {
      const headers: Record<string, string> = { 'accept-encoding': encoding };
      if (c) headers.cookie = c;
      if (etag !== undefined) headers['if-none-match'] = etag;
      if (auth !== undefined) headers.authorization = auth;
      const req: InjectOptions = { method: 'GET', url: `${p}?${qs}`, headers };
      checkAnswer(await inject(req), req);
    }, RUNS * 2);
  });

  it('tiles: hostile manifest and tile addresses never 5xx', async () => {
    const manifest = await inject({ method: 'GET', url: '/tiles/factory/manifest.json' });
    expect(manifest.statusCode, manifest.body).toBe(200);
    const { version, layers } = manifest.json() as { version: string; layers: { id: string }[] };
    const num = fc.oneof(fc.constantFrom('0', '1', '2', '3', '5', '7', '8', '20', '999999', '1000000', '-1', '01', '1.0', '1e3', ''), pathSegment(['0']));
    const tile = fc.tuple(pathSegment([...MAP_IDS]), pathSegment([version, 'v0']), pathSegment(layers.map((l) => l.id)), num, num, num, fc.constantFrom('webp', 'png', 'jpg', 'webp.png', '', '.', 'WEBP'));
    const arbitrary = fc.oneof(pathSegment([...MAP_IDS]).map((m) => `/tiles/${m}/manifest.json`), tile.map(([m, v, l, z, x, y, ext]) => `/tiles/${m}/${v}/${l}/${z}/${x}/${y}.${ext}`));
    await fuzz('tiles', arbitrary, async (url) => {
      const req: InjectOptions = { method: 'GET', url };
      checkAnswer(await inject(req), req);
    });
  });

  it('static files, the page fallback and unknown routes: hostile paths and methods never 5xx', async () => {
    const prefix = fc.constantFrom('', '/icons', '/uploads', '/uploads/markers', '/uploads/sample', '/map', '/api', '/api/be', '/api/be/admin', '/tiles', '/assets', '/quests');
    const segments = fc.array(pathSegment(['safe.svg', 'index.html', 'customs', `${TARGET_UPLOAD}-0.png`, '.env', 'favicon.svg']), { minLength: 1, maxLength: 4 });
    const method = fc.constantFrom<InjectOptions['method']>('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST');
    const arbitrary = fc.tuple(prefix, segments, method, fc.oneof(fc.constant(''), queryString(['map'], hostileString).map((q) => `?${q}`)));
    await fuzz('static paths', arbitrary, async ([pre, segs, m, qs]) => {
      const url = `${pre}/${segs.join('/')}${qs}`;
      // Never a stream: the live route is fuzzed on its own.
      if (url.startsWith('/api/be/live')) return;
      const req: InjectOptions = { method: m, url, headers: m === 'POST' || m === 'PUT' || m === 'PATCH' ? { 'content-type': 'application/json' } : {}, ...(m === 'POST' || m === 'PUT' || m === 'PATCH' ? { payload: '{}' } : {}) };
      checkAnswer(await inject(req), req);
    }, RUNS * 2);
  });

  it('U+0000 in any text input (body, path, query, cookie) answers 4xx, never 5xx (PostgreSQL refuses NUL in text)', async () => {
    const N = 'a\u0000b';
    const marker = { map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 10, y: 10 }, name: 'n', desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [] };
    const png = `data:image/png;base64,${PNG.toString('base64')}`;
    const cases: [string, InjectOptions['method'], string, unknown, string?][] = [
      ['add: uid', 'POST', '/api/be/admin/marker/add', { ...marker, uid: `fz-nul-${N}` }, cookies.admin],
      ['add: name', 'POST', '/api/be/admin/marker/add', { ...marker, uid: 'fz-nul-1', name: N }, cookies.admin],
      ['add: desc', 'POST', '/api/be/admin/marker/add', { ...marker, uid: 'fz-nul-2', desc: N }, cookies.admin],
      ['add: questUid', 'POST', '/api/be/admin/marker/add', { ...marker, uid: 'fz-nul-3', questUid: N }, cookies.admin],
      ['add: image url', 'POST', '/api/be/admin/marker/add', { ...marker, uid: 'fz-nul-4', imgs: [{ img: `/a${N}.png` }] }, cookies.admin],
      ['add: pass-through', 'POST', '/api/be/admin/marker/add', { ...marker, uid: 'fz-nul-5', extraNote: N }, cookies.admin],
      ['update: uid', 'POST', '/api/be/admin/marker/update', { ...marker, uid: N }, cookies.admin],
      ['update: name', 'POST', '/api/be/admin/marker/update', { ...marker, uid: TARGET_UPDATE, name: N }, cookies.admin],
      ['upload: uid', 'POST', '/api/be/admin/maps/marker/upload/base64', { uid: `${N}-0`, map: 'factory', base64: png }, cookies.admin],
      ['users pro: name', 'POST', '/api/be/admin/users/pro', { name: N, pro: true }, cookies.admin],
      ['progress: uid', 'POST', '/api/be/user/progress', { questsDone: [N] }, cookies.pro],
      ['sign-in: name', 'POST', '/api/be/auth/login', { name: N, password: 'not-the-password' }],
      ['sign-in: password', 'POST', '/api/be/auth/login', { name: 'visitor1', password: N }],
      ['sign-up: name', 'POST', '/api/be/auth/register', { name: N, password: 'Quartz-Lantern-Ostrich-8812' }],
      ['delete: uid', 'DELETE', '/api/be/admin/marker/a%00b', undefined, cookies.admin],
      ['history: uid', 'GET', '/api/be/admin/marker/a%00b/history', undefined, cookies.admin],
      ['list: map', 'GET', '/api/be/markers/list?map=a%00b', undefined],
      ['compact: map', 'GET', '/api/be/markers/compact?map=a%00b', undefined],
      ['compact: lang', 'GET', '/api/be/markers/compact?map=customs&lang=a%00b', undefined],
      ['one: uid', 'GET', '/api/be/markers/one?uid=a%00b', undefined],
      ['tiles: map', 'GET', '/tiles/a%00b/manifest.json', undefined],
      ['session cookie', 'GET', '/api/be/user', undefined, `${SESSION_COOKIE}=a%00b`],
    ];
    const failures: string[] = [];
    for (const [name, method, url, body, cookie] of cases) {
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
      if (cookie) headers.cookie = cookie;
      const before = await snapshot();
      const res = await inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
      if (res.statusCode >= 500) failures.push(`${name}: ${method} ${url} → ${res.statusCode}`);
      else if (res.statusCode >= 300 && (await snapshot()) !== before) failures.push(`${name}: refused (${res.statusCode}) but stored`);
    }
    expect(failures.join('\n'), 'U+0000 in text').toBe('');
  });

  it('afterwards: every marker list answers 200 with only valid markers, and /map/customs serves the page', async () => {
    for (const map of ['customs', 'factory', ...MAP_IDS.filter((m) => m !== 'customs' && m !== 'factory')]) {
      const res = await inject({ method: 'GET', url: `/api/be/markers/list?map=${map}`, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, `${map}: ${res.body.slice(0, 200)}`).toBe(200);
      const plain = await inject({ method: 'GET', url: `/api/be/markers/list?map=${map}` });
      const { markers } = plain.json() as { markers: unknown[] };
      const { issues } = validateMarkers(markers);
      expect(issues, `${map}: stored markers the page cannot load`).toEqual([]);
      for (const lang of ['en', 'ru']) {
        const compact = await inject({ method: 'GET', url: `/api/be/markers/compact?map=${map}&lang=${lang}` });
        expect(compact.statusCode, `${map} compact: ${compact.body.slice(0, 200)}`).toBe(200);
        const decoded = decodeCompactList(compact.json());
        expect(decoded.issues, `${map}: compact rows the page cannot load`).toEqual([]);
        expect(decoded.markers.length).toBe(markers.length);
      }
    }
    expect((await repos.markers.get('fz-list-1'))?.uid).toBe('fz-list-1');
    const admin = await inject({ method: 'GET', url: '/api/be/user', headers: { cookie: cookies.admin } });
    expect(admin.statusCode, 'the admin session survived the fuzz').toBe(200);
    if (!indexHtml) return; // no built site: `npm run build` makes one
    const page = await inject({ method: 'GET', url: '/map/customs' });
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    // The built page, with the map's tile manifest in its head, the poster of its first view
    // (server/http/map-page-head.ts, map-poster.ts) and, once the icon atlas was made (a fuzzed
    // request may have asked for it), its version: nothing else added, nothing lost.
    const block = new RegExp(`<script type="application/json" id="${INLINE_MANIFEST_ID}">(.*?)</script>`);
    expect((JSON.parse(block.exec(page.body)?.[1] ?? 'null') as { map?: string } | null)?.map).toBe('customs');
    const withoutExtras = page.body
      .replace(block, '')
      .replace(/<link rel="preload" as="image" href="\/tiles\/customs\/[^"]+" media="[^"]+" fetchpriority="high">/g, '')
      .replace(/<link rel="stylesheet" href="\/tiles\/customs\/[^"]+\/poster\.css">/, '')
      .replace(/<div class="map-poster map-poster--html" aria-hidden="true" data-map="customs">(?:<span class="t\d+" elementtiming="map-poster"><\/span>)+<\/div>/, '')
      .replace(/<meta name="raidmap-icon-atlas" content="[\w-]+">/, '');
    expect(withoutExtras).toBe(indexHtml.toString('utf8'));
  });
});

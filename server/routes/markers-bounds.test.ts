/**
 * Marker bounds on the admin routes (issue 9, defect 6; src/domain/marker-bounds.ts): a hostile
 * pass-through field (thousands of nested arrays), a field beyond its bound or a quest that is
 * not in the quest list answers 400 naming the field, never a 500, and stores nothing.
 */
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MARKER_BOUNDS, type Marker } from '../../src/domain/marker';
import { coordinateBounds } from '../../src/domain/marker-bounds';
import { MarkerBoundsError, markerToRow } from '../db/markers';
import { testBackends } from '../testing/databases';
import { useRoleApp } from '../testing/role-app';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex');

function marker(uid: string, overrides: Record<string, unknown> = {}): Marker {
  return {
    uid, map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 10, y: 20 },
    name: `Marker ${uid}`, desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [],
    ...overrides,
  } as Marker;
}

/** JSON text of `[[[…]]]` nested `depth` deep (built as text: no recursion anywhere). */
const nestedJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('markerToRow', () => {
  it('refuses deeply nested pass-through fields with MarkerBoundsError (status 400), not a stack overflow', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const call = () => markerToRow({ ...marker('m'), deep } as Marker, new Date().toISOString());
    expect(call).toThrow(MarkerBoundsError);
    expect(call).toThrow(/^deep: is nested more than 8 levels deep/);
    try {
      call();
    } catch (error) {
      expect((error as MarkerBoundsError).statusCode).toBe(400);
      expect((error as MarkerBoundsError).field).toBe('deep');
    }
  });
});

describe.each(testBackends())('marker bounds on the admin routes on $name', (backend) => {
  const server = useRoleApp(backend, (root) => ({ uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets') }), {
    seed: async (repos) => {
      await repos.quests.insertMany([
        { uid: 'q-known', name: 'Known', ruName: 'Известный', trader: 'Prapor', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: 'https://example.com/q' },
      ]);
    },
  });

  const call = (method: InjectOptions['method'], url: string, payload?: string, cookie = server.cookies.admin) =>
    server.app.inject({
      method,
      url,
      headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    });
  const add = (body: unknown, cookie?: string) => call('POST', '/api/be/admin/marker/add', typeof body === 'string' ? body : JSON.stringify(body), cookie);
  const update = (body: unknown, cookie?: string) => call('POST', '/api/be/admin/marker/update', typeof body === 'string' ? body : JSON.stringify(body), cookie);
  /** A marker body with `field` set to raw JSON text. */
  const withRawField = (m: Marker, field: string, json: string) => `${JSON.stringify(m).slice(0, -1)},"${field}":${json}}`;

  /** 400 JSON whose message starts with the field. */
  function expectFieldError(res: LightMyRequestResponse, field: string | RegExp) {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json() as { error: string; message: string };
    expect(body.error).toBe('Bad Request');
    if (typeof field === 'string') expect(body.message.startsWith(`${field}:`), body.message).toBe(true);
    else expect(body.message).toMatch(field);
  }

  it('checks the role before the body: 401 and 403 for a hostile body, nothing stored', async () => {
    const body = withRawField(marker('perm'), 'deep', nestedJson(5000));
    expect((await add(body, '')).statusCode).toBe(401);
    expect((await add(body, server.cookies.visitor)).statusCode).toBe(403);
    expect((await add(body, server.cookies.pro)).statusCode).toBe(403);
    expect((await update(body, server.cookies.pro)).statusCode).toBe(403);
    expect(await server.repos.markers.get('perm')).toBeUndefined();
  });

  it('refuses 5,000 nested arrays in a pass-through field on add and update with 400 naming it', async () => {
    const res = await add(withRawField(marker('deep'), 'extraStuff', nestedJson(5000)));
    expectFieldError(res, 'extraStuff');
    expect(res.json().message).toMatch(/nested more than 8 levels/);
    expect(await server.repos.markers.get('deep')).toBeUndefined();

    expect((await add(marker('deep'))).statusCode).toBe(201);
    expectFieldError(await update(withRawField({ ...marker('deep'), version: 1 } as Marker, 'extraStuff', nestedJson(4100))), 'extraStuff');
    const stored = await server.repos.markers.get('deep');
    expect(stored?.version).toBe(1);
    expect(stored).not.toHaveProperty('extraStuff');
    // Within the bound it is kept and passed through.
    const ok = await update(withRawField({ ...marker('deep'), version: 1 } as Marker, 'extraStuff', nestedJson(MARKER_BOUNDS.passThrough.depth)));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().marker.extraStuff).toEqual(JSON.parse(nestedJson(MARKER_BOUNDS.passThrough.depth)));
  });

  it('refuses each known field beyond its bound, naming it; nothing stored', async () => {
    const box = coordinateBounds('factory');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'n'.repeat(MARKER_BOUNDS.name + 1) }, 'name'],
      [{ desc_l10n: { ru: 'д'.repeat(MARKER_BOUNDS.desc + 1) } }, 'desc_l10n.ru'],
      [{ imgs: Array.from({ length: MARKER_BOUNDS.images + 1 }, () => ({ img: '/uploads/a.webp', name: '', desc: '' })) }, 'imgs'],
      [{ imgs: [{ img: 'javascript:alert(1)', name: '', desc: '' }] }, 'imgs.0.img'],
      [{ itemsUid: Array.from({ length: MARKER_BOUNDS.items + 1 }, (_, i) => `i${i}`) }, 'itemsUid'],
      [{ level: 11 }, 'level'],
      [{ level: -6 }, 'level'],
      [{ geometry: { x: box.maxX + 1, y: 0 } }, 'geometry.x'],
      [{ geometry: { x: 0, y: -1e9 } }, 'geometry.y'],
      [{ questUid: 'q'.repeat(65) }, 'questUid'],
    ];
    for (const [over, field] of cases) {
      const uid = `b-${field.replace(/\W/g, '_')}`;
      expectFieldError(await add(marker(uid, over)), field);
      expect(await server.repos.markers.get(uid)).toBeUndefined();
    }
    expect((await add(marker('b-ok', { geometry: { x: box.maxX, y: box.minY }, level: 10 }))).statusCode).toBe(201);
    expectFieldError(await update({ ...marker('b-ok', { level: 11 }), version: 1 }), 'level');
    expect((await server.repos.markers.get('b-ok'))?.level).toBe(10);
  });

  it('refuses a questUid that is not in the quest list; takes one that is', async () => {
    expectFieldError(await add(marker('q1', { questUid: 'q-missing' })), 'questUid');
    expect(await server.repos.markers.get('q1')).toBeUndefined();
    const res = await add(marker('q1', { questUid: 'q-known' }));
    expect(res.statusCode).toBe(201);
    expectFieldError(await update({ ...marker('q1', { questUid: 'q-missing' }), version: 1 }), 'questUid');
    expect((await server.repos.markers.get('q1'))?.questUid).toBe('q-known');
  });

  it('lets a marker keep a quest link that left the quest list, so its other fields stay editable', async () => {
    await server.repos.markers.insertMany([marker('q-old', { questUid: 'q-gone' })]);
    const res = await update({ ...marker('q-old', { questUid: 'q-gone', name: 'Renamed' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().marker).toMatchObject({ name: 'Renamed', questUid: 'q-gone' });
    // Linking it anew elsewhere is refused.
    await server.repos.markers.insertMany([marker('q-other')]);
    expectFieldError(await update(marker('q-other', { questUid: 'q-gone' })), 'questUid');
  });

  it('bounds the kept and the new pass-through fields together on update', async () => {
    const half = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`a${i}`, i]));
    expect((await add(marker('pt', half))).statusCode).toBe(201);
    const more = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`b${i}`, i]));
    const res = await update({ ...marker('pt'), ...more });
    expectFieldError(res, /^b\d+: is one pass-through field too many/);
    const stored = await server.repos.markers.get('pt');
    expect(stored?.version).toBe(1);
    expect(Object.keys(stored!).filter((k) => /^[ab]\d+$/.test(k))).toHaveLength(20);
  });

  it('concurrent updates adding pass-through fields never store more than the bound', async () => {
    expect((await add(marker('race'))).statusCode).toBe(201);
    // 20 unconditional updates at once, each adding two fields of its own: they are applied one
    // after the other, each on the fields kept so far, until the count would cross 32.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => update({ ...marker('race'), [`c${i}a`]: i, [`c${i}b`]: i })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.every((c) => c === 200 || c === 400), codes.join()).toBe(true);
    expect(codes.filter((c) => c === 200)).toHaveLength(MARKER_BOUNDS.passThrough.fields / 2);
    const stored = await server.repos.markers.get('race');
    expect(Object.keys(stored!).filter((k) => /^c\d+[ab]$/.test(k))).toHaveLength(MARKER_BOUNDS.passThrough.fields);
    expect(stored?.version).toBe(1 + MARKER_BOUNDS.passThrough.fields / 2);
  });

  it('refuses an upload to an image index beyond the bound', async () => {
    expect((await add(marker('up'))).statusCode).toBe(201);
    const res = await call('POST', '/api/be/admin/maps/marker/upload/base64', JSON.stringify({ uid: `up-${MARKER_BOUNDS.images}`, map: 'factory', base64: PNG.toString('base64') }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/image index 20 is out of range/);
  });

  it('answers 413 JSON for a body beyond the marker body limit', async () => {
    const res = await add(marker('big', { desc: 'x'.repeat(300 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect(await server.repos.markers.get('big')).toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Marker } from '../../src/domain/marker';
import { createRepositories, migrateToLatest, type Db, type Repositories } from './index';
import { MIGRATIONS } from './migrations';
import { testBackends } from '../testing/databases';

function marker(uid: string, overrides: Partial<Marker> = {}): Marker {
  return {
    uid,
    map: 'customs',
    category: 'Loot',
    subCategory: 'Safe',
    level: 1,
    geometry: { x: 100.5, y: 200.25 },
    name: 'Safe — Dorms',
    desc: 'Near the Dorms.',
    imgs: [{ img: '/uploads/sample/safe-1.webp', name: 'Safe 1/1', desc: 'Dorms' }],
    name_l10n: { en: 'Safe — Dorms', ru: 'Сейф — Общежитие' },
    desc_l10n: { en: 'Near the Dorms.', ru: 'Рядом: Общежитие.' },
    questUid: null,
    itemsUid: ['item-1', 'item-2'],
    ...overrides,
  };
}

describe.each(testBackends())('data layer on $name', (backend) => {
  let db: Db;
  let repos: Repositories;

  beforeEach(async () => {
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
  });

  afterEach(async () => {
    await db.close();
  });

  it('runs migrations once: a second run applies nothing and keeps the data', async () => {
    await repos.markers.insert(marker('m1'));
    const again = await migrateToLatest(db);
    expect(again).toEqual([]);
    expect(await repos.markers.count()).toBe(1);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
  });

  it('stores a marker and reads back every field, pass-through fields included', async () => {
    const input = { ...marker('m1', { questUid: 'quest-1' }), floorName: 'Main', custom: { a: [1, 2] } } as Marker;
    await repos.markers.insert(input);
    expect(await repos.markers.get('m1')).toEqual({ ...input, version: 1 });
    expect(await repos.markers.get('missing')).toBeUndefined();
  });

  it('lists markers of one map only, as objects and as JSON text that parse to the same thing', async () => {
    await repos.markers.insertMany([
      marker('a1'),
      marker('a2', { level: -1, questUid: 'q' }),
      { ...marker('a3'), extraField: 'kept' } as Marker,
      marker('b1', { map: 'woods' }),
    ]);
    const list = await repos.markers.listByMap('customs');
    expect(list.map((m) => m.uid)).toEqual(['a1', 'a2', 'a3']);
    expect(JSON.parse(await repos.markers.listJsonByMap('customs'))).toEqual({ markers: list });
    expect(JSON.parse(await repos.markers.listJsonByMap('factory'))).toEqual({ markers: [] });
    expect(await repos.markers.countByMap()).toEqual({ customs: 3, woods: 1 });
  });

  it('inserts thousands of markers in batches, all or nothing', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => marker(`bulk-${String(i).padStart(5, '0')}`));
    await repos.markers.insertMany(many);
    expect(await repos.markers.count('customs')).toBe(5000);
    // A duplicate uid in the last batch rolls back the whole call.
    const clash = [...Array.from({ length: 3000 }, (_, i) => marker(`new-${i}`)), marker('bulk-00000')];
    await expect(repos.markers.insertMany(clash)).rejects.toThrow();
    expect(await repos.markers.count()).toBe(5000);
  });

  it('updates and removes markers and tells subscribers which maps changed', async () => {
    const changed: string[] = [];
    const unsubscribe = repos.markers.onChange((map) => changed.push(map));
    await repos.markers.insert(marker('m1'));
    const updated = await repos.markers.update(marker('m1', { map: 'woods', name: 'Moved', level: 2 }));
    expect(updated).toMatchObject({ ok: true, marker: { uid: 'm1', map: 'woods', name: 'Moved', level: 2, version: 2 } });
    expect(await repos.markers.update(marker('nope'))).toEqual({ ok: false, notFound: true });
    expect(await repos.markers.remove('m1')).toEqual({ ok: true, uid: 'm1', map: 'woods', version: 3 });
    expect(await repos.markers.remove('m1')).toEqual({ ok: false, notFound: true });
    expect(changed).toEqual(['customs', 'customs', 'woods', 'woods']);
    unsubscribe();
    await repos.markers.insert(marker('m2'));
    expect(changed).toHaveLength(4);
  });

  it('versions every write, refuses a stale version and keeps a history row per change', async () => {
    const added = await repos.markers.insert(marker('v1'), { user: 'alice' });
    expect(added).toMatchObject({ ok: true, marker: { uid: 'v1', version: 1 } });
    expect(await repos.markers.insert(marker('v1', { name: 'Again' }))).toMatchObject({ ok: false, conflict: true, current: { name: 'Safe — Dorms', version: 1 } });

    const first = await repos.markers.update(marker('v1', { name: 'First' }), { expectedVersion: 1, user: 'bob' });
    expect(first).toMatchObject({ ok: true, marker: { name: 'First', version: 2 } });
    const stale = await repos.markers.update(marker('v1', { name: 'Stale' }), { expectedVersion: 1, user: 'carol' });
    expect(stale).toMatchObject({ ok: false, conflict: true, current: { name: 'First', version: 2 } });
    expect(await repos.markers.remove('v1', { expectedVersion: 1 })).toMatchObject({ ok: false, conflict: true, current: { version: 2 } });
    expect(await repos.markers.get('v1')).toMatchObject({ name: 'First', version: 2 });

    expect(await repos.markers.remove('v1', { expectedVersion: 2, user: 'dave' })).toEqual({ ok: true, uid: 'v1', map: 'customs', version: 3 });
    // The same uid again (undo of the delete) continues the version sequence.
    expect(await repos.markers.insert(marker('v1'), { user: 'erin' })).toMatchObject({ ok: true, marker: { version: 4 } });

    const history = await repos.markers.history('v1');
    expect(history.map((h) => [h.action, h.user, h.version])).toEqual([
      ['add', 'erin', 4],
      ['delete', 'dave', 3],
      ['update', 'bob', 2],
      ['add', 'alice', 1],
    ]);
    expect(history[2].before).toMatchObject({ name: 'Safe — Dorms', version: 1 });
    expect(history[2].after).toMatchObject({ name: 'First', version: 2 });
    expect(history[1].after).toBeNull();
    expect(history[3].before).toBeNull();
    expect(history.every((h) => h.uid === 'v1' && h.map === 'customs' && !Number.isNaN(Date.parse(h.at)))).toBe(true);
    expect(await repos.markers.history('v1', 2)).toHaveLength(2);
    expect(await repos.markers.history('never')).toEqual([]);
  });

  it('keeps stored pass-through fields that an update leaves out, and the list JSON carries the version', async () => {
    await repos.markers.insert({ ...marker('p1'), floorName: 'Main', custom: { a: 1 } } as Marker);
    const result = await repos.markers.update({ ...marker('p1', { name: 'Renamed' }), custom: { a: 2 } } as Marker);
    expect(result.ok && result.marker).toMatchObject({ name: 'Renamed', floorName: 'Main', custom: { a: 2 }, version: 2 });
    await repos.markers.insert(marker('p2'));
    const list = JSON.parse(await repos.markers.listJsonByMap('customs')) as { markers: Marker[] };
    expect(list.markers.map((m) => [m.uid, m.version])).toEqual([['p1', 2], ['p2', 1]]);
    expect(list).toEqual({ markers: await repos.markers.listByMap('customs') });
  });

  it('applies concurrent read-modify-writes one after the other and lets one of many same-version updates win', async () => {
    await repos.markers.insert(marker('c1', { itemsUid: [] }));
    // 10 unconditional appends at once: none is lost.
    const appends = await Promise.all(
      Array.from({ length: 10 }, (_, i) => repos.markers.modify('c1', (m) => ({ ...m, itemsUid: [...m.itemsUid, `i${i}`] }))),
    );
    expect(appends.every((r) => r.ok)).toBe(true);
    const after = (await repos.markers.get('c1'))!;
    expect(after.itemsUid.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `i${i}`).sort());
    expect(after.version).toBe(11);
    // 10 updates based on the same version: exactly one wins.
    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) => repos.markers.update(marker('c1', { name: `n${i}` }), { expectedVersion: 11 })),
    );
    expect(racing.filter((r) => r.ok)).toHaveLength(1);
    expect(racing.filter((r) => r.conflict).every((r) => r.conflict && r.current.version === 12)).toBe(true);
    expect(await repos.markers.history('c1')).toHaveLength(12);
  });

  it('tells change listeners what each committed write did, a move as remove + upsert', async () => {
    const changes: unknown[] = [];
    const stop = repos.markers.onMarkerChange((c) => changes.push(c));
    await repos.markers.insert(marker('e1'), { user: 'ann' });
    await repos.markers.update(marker('e1', { map: 'woods' }), { user: 'ann' });
    await repos.markers.update(marker('e1', { map: 'woods' }), { expectedVersion: 1 });
    await repos.markers.remove('e1');
    stop();
    await repos.markers.insert(marker('e2'));
    expect(changes).toEqual([
      { kind: 'upsert', map: 'customs', marker: expect.objectContaining({ uid: 'e1', version: 1 }), by: 'ann' },
      { kind: 'remove', map: 'customs', uid: 'e1', version: 2, by: 'ann' },
      { kind: 'upsert', map: 'woods', marker: expect.objectContaining({ uid: 'e1', version: 2 }), by: 'ann' },
      { kind: 'remove', map: 'woods', uid: 'e1', version: 3, by: null },
    ]);
  });

  it('keeps quests and items in the order they were added, with boolean flags', async () => {
    await repos.quests.insertMany([
      { uid: 'q2', name: 'Debut', ruName: 'Дебют', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://w/Debut' },
      { uid: 'q1', name: 'Knock-Knock', ruName: 'Тук-тук', trader: 'Lightkeeper', requiredForKappa: false, requiredForLightkeeper: true, wikiUrl: 'https://w/KK' },
    ]);
    await repos.items.insertMany([{ uid: 'i9', name: 'Bolts', ruName: 'Болты' }]);
    await repos.items.insertMany([{ uid: 'i1', name: 'Magnet', ruName: 'Магнит' }]);
    expect(await repos.quests.list()).toEqual([
      { uid: 'q2', name: 'Debut', ruName: 'Дебют', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://w/Debut' },
      { uid: 'q1', name: 'Knock-Knock', ruName: 'Тук-тук', trader: 'Lightkeeper', requiredForKappa: false, requiredForLightkeeper: true, wikiUrl: 'https://w/KK' },
    ]);
    expect(await repos.quests.get('q1')).toMatchObject({ name: 'Knock-Knock' });
    expect(await repos.items.list()).toEqual([
      { uid: 'i9', name: 'Bolts', ruName: 'Болты' },
      { uid: 'i1', name: 'Magnet', ruName: 'Магнит' },
    ]);
  });
});

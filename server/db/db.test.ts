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
    expect(await repos.markers.get('m1')).toEqual(input);
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
    expect(updated).toMatchObject({ uid: 'm1', map: 'woods', name: 'Moved', level: 2 });
    expect(await repos.markers.update(marker('nope'))).toBeUndefined();
    expect(await repos.markers.remove('m1')).toBe(true);
    expect(await repos.markers.remove('m1')).toBe(false);
    expect(changed).toEqual(['customs', 'customs', 'woods', 'woods']);
    unsubscribe();
    await repos.markers.insert(marker('m2'));
    expect(changed).toHaveLength(4);
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

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from '../../src/domain/categories';
import { MAPS, MAP_IDS } from '../../src/domain/maps';
import { validateMarkers, type Marker } from '../../src/domain/marker';
import { TRADERS } from './quests';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { seedIfEmpty, seedLine, type SeedReport } from './index';
import { sampleImageSvg } from './images';
import { sampleItems } from './items';
import { sampleMarkers } from './markers';
import { sampleQuests } from './quests';
import { createRng } from './prng';
import { SAMPLE_IMAGE_SIZE } from './images';
import { testBackends, tempDir } from '../testing/databases';
import sharp from 'sharp';

describe('seeded random numbers', () => {
  it('repeat for the same seed and differ between seeds', () => {
    const a = createRng('x');
    const b = createRng('x');
    const c = createRng('y');
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    expect(seqA.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(createRng(1).hex(24)).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe('sample markers', () => {
  const quests = sampleQuests();
  const items = sampleItems();

  it('are the same on every run', () => {
    const first = sampleMarkers({ map: MAPS.factory, count: 400, quests, items });
    expect(sampleMarkers({ map: MAPS.factory, count: 400, quests, items })).toEqual(first);
    expect(sampleQuests()).toEqual(quests);
  });

  it('scale to 100,000 markers with unique uids', () => {
    const many = sampleMarkers({ map: MAPS.customs, count: 100_000, quests, items });
    expect(many).toHaveLength(100_000);
    expect(new Set(many.map((m) => m.uid)).size).toBe(100_000);
  });

  it('has about 40 quests from the nine traders and about 80 items, with unique ids', () => {
    expect(quests.length).toBeGreaterThanOrEqual(38);
    expect(items.length).toBeGreaterThanOrEqual(75);
    expect(new Set(quests.map((q) => q.uid)).size).toBe(quests.length);
    expect(new Set(items.map((i) => i.uid)).size).toBe(items.length);
    expect(new Set(quests.map((q) => q.trader))).toEqual(new Set(TRADERS));
    expect(quests.some((q) => q.requiredForKappa)).toBe(true);
    expect(quests.some((q) => q.requiredForLightkeeper && !q.requiredForKappa)).toBe(true);
    for (const q of quests) {
      expect(q.ruName).toMatch(/[а-яА-Я]/);
      expect(q.wikiUrl).toMatch(/^https:\/\//);
    }
    for (const i of items) expect(i.ruName).toMatch(/[а-яА-Я]/);
  });
});

describe('the benchmark data set', () => {
  it('seeds 100,000 markers for one map in seconds (SQLite)', async () => {
    const db = await testBackends()[0].open();
    const uploadsDir = path.join(tempDir(), 'uploads');
    try {
      await migrateToLatest(db);
      const repos = createRepositories(db);
      const started = performance.now();
      const report = await seedIfEmpty(db, repos, { maps: ['customs'], markersPerMap: 100_000, uploadsDir });
      const ms = performance.now() - started;
      expect(report.markers).toBe(100_000);
      expect(await repos.markers.count('customs')).toBe(100_000);
      // 5–8 s on a heavily loaded 2-core machine, images included; the bound leaves room for a busy CI.
      expect(ms).toBeLessThan(30_000);
      const list = JSON.parse(await repos.markers.listJsonByMap('customs')) as { markers: Marker[] };
      expect(list.markers).toHaveLength(100_000);
    } finally {
      await db.close();
      fs.rmSync(path.dirname(uploadsDir), { recursive: true, force: true });
    }
  }, 90_000);
});

describe.each(testBackends())('seeding on $name', (backend) => {
  let db: Db;
  let repos: Repositories;
  let uploadsDir: string;
  let report: SeedReport;
  const byMap = new Map<string, Marker[]>();

  beforeAll(async () => {
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    uploadsDir = path.join(tempDir(), 'uploads');
    report = await seedIfEmpty(db, repos, { maps: MAP_IDS, markersPerMap: 320, uploadsDir });
    for (const id of MAP_IDS) byMap.set(id, await repos.markers.listByMap(id));
  });

  afterAll(async () => {
    await db.close();
    fs.rmSync(path.dirname(uploadsDir), { recursive: true, force: true });
  });

  it('writes at least 320 valid markers per map', () => {
    expect(report).toMatchObject({ seeded: true, markers: 320 * MAP_IDS.length });
    for (const id of MAP_IDS) {
      const markers = byMap.get(id)!;
      expect(markers.length, id).toBeGreaterThanOrEqual(320);
      const { issues } = validateMarkers(markers);
      expect(issues, id).toEqual([]);
    }
  });

  it('covers every subcategory on every level of every map, inside the map', () => {
    for (const id of MAP_IDS) {
      const map = MAPS[id];
      const markers = byMap.get(id)!;
      const pairs = new Set(markers.map((m) => `${m.subCategory}@${m.level}`));
      for (const sub of SUBCATEGORIES) {
        for (const level of map.levels) expect(pairs.has(`${sub.id}@${level.num}`), `${id} ${sub.id} level ${level.num}`).toBe(true);
      }
      const levelNums = new Set(map.levels.map((l) => l.num));
      for (const m of markers) {
        expect(levelNums.has(m.level)).toBe(true);
        expect(m.geometry.x).toBeGreaterThanOrEqual(0);
        expect(m.geometry.x).toBeLessThanOrEqual(map.size.width);
        expect(m.geometry.y).toBeGreaterThanOrEqual(0);
        expect(m.geometry.y).toBeLessThanOrEqual(map.size.height);
      }
    }
  });

  it('names and describes every marker in English and Russian', () => {
    for (const markers of byMap.values()) {
      for (const m of markers) {
        expect(m.name_l10n.en).toBe(m.name);
        expect(m.desc_l10n.en).toBe(m.desc);
        expect(m.name).not.toBe('');
        expect(m.name_l10n.ru).toMatch(/[а-яА-Я]/);
        expect(m.desc_l10n.ru).toMatch(/[а-яА-Я]/);
      }
    }
  });

  it('links quest markers to sample quests and items to sample items', async () => {
    const questUids = new Set((await repos.quests.list()).map((q) => q.uid));
    const itemUids = new Set((await repos.items.list()).map((i) => i.uid));
    const all = [...byMap.values()].flat();
    const questMarkers = all.filter((m) => m.subCategory === 'Quest');
    expect(questMarkers.length).toBeGreaterThan(0);
    for (const m of questMarkers) expect(questUids.has(m.questUid!)).toBe(true);
    for (const m of all.filter((x) => x.questUid)) expect(questUids.has(m.questUid!)).toBe(true);
    const withItems = all.filter((m) => m.itemsUid.length > 0);
    expect(withItems.length).toBeGreaterThan(all.length * 0.05);
    for (const m of withItems) for (const uid of m.itemsUid) expect(itemUids.has(uid)).toBe(true);
  });

  it('gives about 10% of markers 1–3 images that exist on disk as 480×270 images', async () => {
    const all = [...byMap.values()].flat();
    const withImages = all.filter((m) => m.imgs.length > 0);
    expect(withImages.length / all.length).toBeGreaterThan(0.06);
    expect(withImages.length / all.length).toBeLessThan(0.14);
    const files = new Set<string>();
    for (const m of withImages) {
      expect(m.imgs.length).toBeGreaterThanOrEqual(1);
      expect(m.imgs.length).toBeLessThanOrEqual(3);
      for (const img of m.imgs) {
        expect(img.img).toMatch(/^\/uploads\/sample\/[a-z0-9-]+\.webp$/);
        files.add(img.img.replace('/uploads/', ''));
      }
    }
    for (const file of files) expect(fs.existsSync(path.join(uploadsDir, file)), file).toBe(true);
    const meta = await sharp(path.join(uploadsDir, [...files][0])).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format }).toEqual({ ...SAMPLE_IMAGE_SIZE, format: 'webp' });
  });

  it('does nothing when the database already has markers', async () => {
    const again = await seedIfEmpty(db, repos, { maps: MAP_IDS, markersPerMap: 320, uploadsDir });
    expect(again).toMatchObject({ seeded: false, markersWhy: 'has-markers', markers: 0, quests: 0, items: 0, imagesWritten: 0 });
    expect(await repos.markers.count()).toBe(320 * MAP_IDS.length);
    expect(await repos.quests.count()).toBe(sampleQuests().length);
  });
});

describe.each(testBackends())('starting empty on $name', (backend) => {
  it('MARKERS_PER_MAP=0 writes the catalog only, and no later start seeds sample markers into that database', async () => {
    const db = await backend.open();
    const uploadsDir = path.join(tempDir(), 'uploads');
    try {
      await migrateToLatest(db);
      const repos = createRepositories(db);
      const empty = await seedIfEmpty(db, repos, { maps: ['customs'], markersPerMap: 0, uploadsDir });
      expect(empty).toMatchObject({ seeded: false, markersWhy: 'started-empty', markers: 0, quests: sampleQuests().length, items: sampleItems().length, imagesWritten: 0 });
      expect(await repos.markers.count()).toBe(0);
      expect(fs.existsSync(path.join(uploadsDir, 'sample'))).toBe(false);
      // A restart without the variable (the default 320) leaves the site empty.
      const later = await seedIfEmpty(db, repos, { maps: ['customs'], markersPerMap: 320, uploadsDir });
      expect(later).toMatchObject({ seeded: false, markersWhy: 'started-before', markers: 0, quests: 0, items: 0 });
      expect(await repos.markers.count()).toBe(0);
    } finally {
      await db.close();
      fs.rmSync(path.dirname(uploadsDir), { recursive: true, force: true });
    }
  }, 60_000);

  it('does not seed again once an admin has deleted every marker', async () => {
    const db = await backend.open();
    const uploadsDir = path.join(tempDir(), 'uploads');
    try {
      await migrateToLatest(db);
      const repos = createRepositories(db);
      expect(await seedIfEmpty(db, repos, { maps: ['factory'], markersPerMap: 20, uploadsDir })).toMatchObject({ seeded: true, markersWhy: 'seeded', markers: 20 });
      await db.kysely.deleteFrom('markers').execute();
      expect(await seedIfEmpty(db, repos, { maps: ['factory'], markersPerMap: 20, uploadsDir })).toMatchObject({ seeded: false, markersWhy: 'started-before' });
      expect(await repos.markers.count()).toBe(0);
    } finally {
      await db.close();
      fs.rmSync(path.dirname(uploadsDir), { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a sample image', () => {
  it('says it is a sample photo and counts nothing (the popup counts a marker\'s images)', () => {
    const svg = sampleImageSvg(SUBCATEGORIES[0].id, 2);
    expect(svg).toContain('>sample photo</text>');
    expect(svg).not.toMatch(/\d\/\d/);
  });
});

describe('seedLine', () => {
  const report = { markers: 640, quests: 20, items: 30, ms: 812 };
  it('says why markers were or were not written', () => {
    expect(seedLine({ ...report, markersWhy: 'seeded' }, 'data/raidmap.sqlite', 2)).toBe('seeded 640 sample markers on 2 map(s), 20 quests, 30 items in 812 ms');
    expect(seedLine({ ...report, markers: 0, markersWhy: 'started-empty' }, 'data/raidmap.sqlite', 2)).toBe(
      'database data/raidmap.sqlite started empty (MARKERS_PER_MAP=0): 20 quests and 30 items, no sample markers',
    );
    expect(seedLine({ ...report, markersWhy: 'started-before' }, 'PostgreSQL', 2)).toMatch(/^database PostgreSQL has no markers but has started before: not seeding/);
    expect(seedLine({ ...report, markersWhy: 'has-markers' }, 'PostgreSQL', 2)).toBe('database PostgreSQL already has markers: not seeding');
  });
});

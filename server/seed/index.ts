/**
 * Seeds sample content into a new database, in one transaction: the quest and item catalog
 * (each when its table is empty) and `markersPerMap` sample markers for the chosen maps.
 *
 * Markers only on the database's first start: one whose catalog is still empty. The catalog is
 * written on that start in the same transaction, whatever `markersPerMap` is, so it is the
 * record that the database has started — seeded, or started empty with MARKERS_PER_MAP=0. A
 * later start therefore never puts sample markers into a site that chose to start empty (or
 * whose admins deleted every marker), even without the variable.
 */
import { MAPS, type MapId } from '../../src/domain/maps';
import type { Db } from '../db/database';
import type { Repositories } from '../db';
import { ensureSampleImages } from './images';
import { sampleItems } from './items';
import { sampleMarkers } from './markers';
import { sampleQuests } from './quests';

export interface SeedOptions {
  maps: readonly MapId[];
  markersPerMap: number;
  /** `$DATA_DIR/uploads`: sample images go to its `sample/` folder. */
  uploadsDir: string;
}

export interface SeedReport {
  /** True when sample markers were written (a new database, markersPerMap > 0). */
  seeded: boolean;
  /**
   * Why markers were or were not written: `seeded`; `started-empty` (a new database and
   * markersPerMap 0); `has-markers`; `started-before` (no markers, but not a new database).
   */
  markersWhy: 'seeded' | 'started-empty' | 'has-markers' | 'started-before';
  markers: number;
  quests: number;
  items: number;
  imagesWritten: number;
  ms: number;
}

export async function seedIfEmpty(db: Db, repos: Repositories, options: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const quests = sampleQuests();
  const items = sampleItems();
  // The images only sample markers use; none for a site that starts empty.
  const images = options.markersPerMap > 0 ? ensureSampleImages(options.uploadsDir) : Promise.resolve({ written: 0 });

  const report = await db.kysely.transaction().execute(async (trx) => {
    const count = async (table: 'markers' | 'quests' | 'items') =>
      Number((await trx.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    const out: Omit<SeedReport, 'imagesWritten' | 'ms'> = { seeded: false, markersWhy: 'has-markers', markers: 0, quests: 0, items: 0 };
    // Before the catalog is written below: a database without one has never started.
    const isNew = (await count('quests')) === 0 && (await count('items')) === 0;
    if ((await count('quests')) === 0) {
      await repos.quests.insertMany(quests, trx);
      out.quests = quests.length;
    }
    if ((await count('items')) === 0) {
      await repos.items.insertMany(items, trx);
      out.items = items.length;
    }
    if ((await count('markers')) > 0) out.markersWhy = 'has-markers';
    else if (!isNew) out.markersWhy = 'started-before';
    else if (options.markersPerMap === 0) out.markersWhy = 'started-empty';
    else {
      for (const id of options.maps) {
        const markers = sampleMarkers({ map: MAPS[id], count: options.markersPerMap, quests, items });
        await repos.markers.insertMany(markers, trx);
        out.markers += markers.length;
      }
      out.seeded = true;
      out.markersWhy = 'seeded';
    }
    return out;
  });

  const { written } = await images;
  return { ...report, imagesWritten: written, ms: Math.round(performance.now() - started) };
}

/** What the start-up says of its seeding (server/main.ts), by why markers were or were not written. */
export function seedLine(seed: Pick<SeedReport, 'markersWhy' | 'markers' | 'quests' | 'items' | 'ms'>, where: string, mapCount: number): string {
  switch (seed.markersWhy) {
    case 'seeded':
      return `seeded ${seed.markers} sample markers on ${mapCount} map(s), ${seed.quests} quests, ${seed.items} items in ${seed.ms} ms`;
    case 'started-empty':
      return `database ${where} started empty (MARKERS_PER_MAP=0): ${seed.quests} quests and ${seed.items} items, no sample markers`;
    case 'started-before':
      return `database ${where} has no markers but has started before: not seeding sample markers (a new DATA_DIR or database gets them)`;
    case 'has-markers':
      return `database ${where} already has markers: not seeding`;
  }
}

/**
 * Seeds sample content into an empty database: quests and items (when their tables are
 * empty) and markers for the chosen maps (only when no marker exists), in one transaction.
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
  /** False when the database already had markers (nothing was written). */
  seeded: boolean;
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
  const images = ensureSampleImages(options.uploadsDir);

  const report = await db.kysely.transaction().execute(async (trx) => {
    const count = async (table: 'markers' | 'quests' | 'items') =>
      Number((await trx.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    const out = { seeded: false, markers: 0, quests: 0, items: 0 };
    if ((await count('quests')) === 0) {
      await repos.quests.insertMany(quests, trx);
      out.quests = quests.length;
    }
    if ((await count('items')) === 0) {
      await repos.items.insertMany(items, trx);
      out.items = items.length;
    }
    if ((await count('markers')) === 0) {
      for (const id of options.maps) {
        const markers = sampleMarkers({ map: MAPS[id], count: options.markersPerMap, quests, items });
        await repos.markers.insertMany(markers, trx);
        out.markers += markers.length;
      }
      out.seeded = true;
    }
    return out;
  });

  const { written } = await images;
  return { ...report, imagesWritten: written, ms: Math.round(performance.now() - started) };
}

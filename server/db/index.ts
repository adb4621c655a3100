/** The data layer: open + migrate, and one repository per resource. */
import { MarkerRepository } from './markers';
import { QuestRepository } from './quests';
import { ItemRepository } from './items';
import type { Db } from './database';

export { openDatabase, migrateToLatest, MigrationError, type Db, type Dialect } from './database';
export { MarkerRepository, markerToRow, rowToMarker } from './markers';
export { QuestRepository, type Quest } from './quests';
export { ItemRepository, type Item } from './items';

export interface Repositories {
  markers: MarkerRepository;
  quests: QuestRepository;
  items: ItemRepository;
}

export function createRepositories(db: Db): Repositories {
  return { markers: new MarkerRepository(db), quests: new QuestRepository(db), items: new ItemRepository(db) };
}

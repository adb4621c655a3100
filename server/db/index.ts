/** The data layer: open + migrate, and one repository per resource. */
import { MarkerRepository } from './markers';
import { QuestRepository } from './quests';
import { ItemRepository } from './items';
import { RateLimitRepository } from './rate-limits';
import { SessionRepository } from './sessions';
import { UserRepository } from './users';
import type { Db } from './database';

export { openDatabase, databaseOptions, migrateToLatest, MigrationError, type Db, type Dialect } from './database';
export {
  MarkerRepository, markerToRow, rowToMarker,
  type MarkerChange, type MarkerWriteOptions, type MarkerInsertResult, type MarkerUpdateResult, type MarkerRemoveResult,
} from './markers';
export { HISTORY_LIMIT, type HistoryEntry, type MarkerHistoryAction } from './marker-history';
export { QuestRepository, type Quest } from './quests';
export { ItemRepository, type Item } from './items';
export { UserRepository, UserNameTakenError, type User } from './users';
export { SessionRepository, type Session } from './sessions';
export { RateLimitRepository, type RateCount } from './rate-limits';

export interface Repositories {
  markers: MarkerRepository;
  quests: QuestRepository;
  items: ItemRepository;
  users: UserRepository;
  sessions: SessionRepository;
  /** Rate-limit counters shared by every server process on this database. */
  rateLimits: RateLimitRepository;
}

export function createRepositories(db: Db): Repositories {
  return { markers: new MarkerRepository(db), quests: new QuestRepository(db), items: new ItemRepository(db), users: new UserRepository(db), sessions: new SessionRepository(db), rateLimits: new RateLimitRepository(db) };
}

/**
 * User repository: accounts with their role flags and quest progress. The users and
 * sessions tables are typed here (AccountTables) and added to the Kysely instance with
 * withTables, so the marker schema file stays as it is.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from './database';
import type { Database } from './schema';

export type UsersTable = {
  id: string;
  name: string;
  /** lower(name): unique, so names are unique regardless of case. */
  name_key: string;
  password_hash: string;
  pro: number;
  admin: number;
  /** JSON: string[] */
  quests_done: string;
  /** JSON: string[] */
  quests_hidden: string;
  created_at: string;
};

export type SessionsTable = {
  /** sha256 (hex) of the cookie token; the token itself is never stored. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
};

export type AccountTables = {
  users: UsersTable;
  sessions: SessionsTable;
};

export type AccountDb = Kysely<Database & AccountTables>;

export function accountDb(db: Db): AccountDb {
  return db.kysely.withTables<AccountTables>();
}

export interface User {
  id: string;
  name: string;
  passwordHash: string;
  pro: boolean;
  admin: boolean;
  questsDone: string[];
  questsHidden: string[];
  createdAt: string;
}

function parseList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function rowToUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    name: row.name,
    passwordHash: row.password_hash,
    pro: Number(row.pro) === 1,
    admin: Number(row.admin) === 1,
    questsDone: parseList(row.quests_done),
    questsHidden: parseList(row.quests_hidden),
    createdAt: row.created_at,
  };
}

export class UserNameTakenError extends Error {
  constructor(name: string) {
    super(`the name "${name}" is taken`);
    this.name = 'UserNameTakenError';
  }
}

export class UserRepository {
  private readonly k: AccountDb;

  constructor(db: Db) {
    this.k = accountDb(db);
  }

  async create(input: { name: string; passwordHash: string; pro?: boolean; admin?: boolean }): Promise<User> {
    if (await this.getByName(input.name)) throw new UserNameTakenError(input.name);
    const id = randomBytes(12).toString('hex');
    try {
      await this.k
        .insertInto('users')
        .values({
          id,
          name: input.name,
          name_key: input.name.toLowerCase(),
          password_hash: input.passwordHash,
          pro: input.pro ? 1 : 0,
          admin: input.admin ? 1 : 0,
          quests_done: '[]',
          quests_hidden: '[]',
          created_at: new Date().toISOString(),
        })
        .execute();
    } catch (error) {
      // A concurrent sign-up with the same name hit the unique index.
      if (await this.getByName(input.name)) throw new UserNameTakenError(input.name);
      throw error;
    }
    return (await this.getById(id))!;
  }

  async getById(id: string): Promise<User | undefined> {
    const row = await this.k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? rowToUser(row) : undefined;
  }

  /** Case-insensitive. */
  async getByName(name: string): Promise<User | undefined> {
    const row = await this.k.selectFrom('users').selectAll().where('name_key', '=', name.toLowerCase()).executeTakeFirst();
    return row ? rowToUser(row) : undefined;
  }

  async list(): Promise<User[]> {
    const rows = await this.k.selectFrom('users').selectAll().orderBy('name_key').execute();
    return rows.map(rowToUser);
  }

  async count(): Promise<number> {
    const row = await this.k.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sets role flags; returns the updated user or undefined when the id is unknown. */
  async setFlags(id: string, flags: { pro?: boolean; admin?: boolean }): Promise<User | undefined> {
    const set: { pro?: number; admin?: number } = {};
    if (flags.pro !== undefined) set.pro = flags.pro ? 1 : 0;
    if (flags.admin !== undefined) set.admin = flags.admin ? 1 : 0;
    if (Object.keys(set).length > 0) await this.k.updateTable('users').set(set).where('id', '=', id).execute();
    return this.getById(id);
  }

  /** Replaces the password hash; returns the updated user or undefined when the id is unknown. End the user's sessions too. */
  async setPasswordHash(id: string, passwordHash: string): Promise<User | undefined> {
    await this.k.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    return this.getById(id);
  }

  /** Deletes the account (its sessions go with it: on delete cascade). False when the id is unknown. */
  async remove(id: string): Promise<boolean> {
    const result = await this.k.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** How many admins there are. */
  async countAdmins(): Promise<number> {
    const row = await this.k.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).where('admin', '=', 1).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Read-modify-write of the user's progress: `next` gets the stored lists and answers the new
   * ones (it may throw to refuse). Written only if the lists are still the ones read
   * (compare-and-set on both columns); when another write came first, `next` runs again on the
   * fresh lists, so two devices saving at once both keep their change. Undefined: no such user.
   */
  async changeProgress(id: string, next: (current: { questsDone: string[]; questsHidden: string[] }) => { questsDone: readonly string[]; questsHidden: readonly string[] }): Promise<User | undefined> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const row = await this.k.selectFrom('users').select(['quests_done', 'quests_hidden']).where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const wanted = next({ questsDone: parseList(row.quests_done), questsHidden: parseList(row.quests_hidden) });
      const result = await this.k
        .updateTable('users')
        .set({ quests_done: JSON.stringify([...new Set(wanted.questsDone)]), quests_hidden: JSON.stringify([...new Set(wanted.questsHidden)]) })
        .where('id', '=', id)
        .where('quests_done', '=', row.quests_done)
        .where('quests_hidden', '=', row.quests_hidden)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return this.getById(id);
    }
    throw new Error('quest progress write gave up after 50 attempts');
  }

  async setProgress(id: string, progress: { questsDone?: readonly string[]; questsHidden?: readonly string[] }): Promise<User | undefined> {
    const set: { quests_done?: string; quests_hidden?: string } = {};
    if (progress.questsDone) set.quests_done = JSON.stringify([...new Set(progress.questsDone)]);
    if (progress.questsHidden) set.quests_hidden = JSON.stringify([...new Set(progress.questsHidden)]);
    if (Object.keys(set).length > 0) await this.k.updateTable('users').set(set).where('id', '=', id).execute();
    return this.getById(id);
  }
}

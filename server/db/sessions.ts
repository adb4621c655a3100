/**
 * Session repository: server-side sessions, keyed by sha256(token) so a leaked database does
 * not leak usable cookies. Expiry is checked on every read; expired rows are purged.
 */
import type { Db } from './database';
import { accountDb, type AccountDb } from './users';

export interface Session {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  lastSeenAt: string;
}

export class SessionRepository {
  private readonly k: AccountDb;

  constructor(db: Db) {
    this.k = accountDb(db);
  }

  async create(session: Session): Promise<void> {
    await this.k
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        last_seen_at: session.lastSeenAt,
      })
      .execute();
  }

  async get(id: string): Promise<Session | undefined> {
    const row = await this.k.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row
      ? { id: row.id, userId: row.user_id, createdAt: row.created_at, expiresAt: row.expires_at, lastSeenAt: row.last_seen_at }
      : undefined;
  }

  async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await this.k.updateTable('sessions').set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async setExpiry(id: string, expiresAt: string): Promise<void> {
    await this.k.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async remove(id: string): Promise<void> {
    await this.k.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Ends every session of the user (a password change, the account removed). Returns how many. */
  async removeForUser(userId: string): Promise<number> {
    const result = await this.k.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes sessions that expired before `now` (ISO). Returns how many. */
  async purgeExpired(now: string): Promise<number> {
    const result = await this.k.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

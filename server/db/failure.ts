/**
 * Which errors are the storage's, not the request's or raidmap's: a database that does not
 * answer (PostgreSQL restarting, the network cut, SQLite busy or its file unreadable) and a full
 * disk. The API answers them as such (server/http/errors.ts) instead of a bare 500, so a client
 * knows to try again later and an operator reads the real cause in one log line
 * (docs/SERVER.md "Routes", docs/DECISIONS.md "Storage failures").
 */

export interface StorageFailure {
  /** 503: not answering now, try again (with Retry-After); 507: the disk is full. */
  status: 503 | 507;
  /** What the API says (no internals). */
  message: string;
  /** The error's code when it has one (SQLITE_FULL, ECONNREFUSED, 57P01), for the log. */
  code?: string;
  /** What it means, for the log line: "the disk is full", "the database is not answering". */
  reason: string;
}

export const DISK_FULL_MESSAGE = 'the server has no disk space left: nothing was saved; try again later';
export const UNAVAILABLE_MESSAGE = 'the database is not answering: nothing was saved; try again in a moment';
/** Seconds a client is asked to wait after a 503 from the database. */
export const RETRY_AFTER_S = 5;

/** Network errors of a connection to PostgreSQL (the server makes no other outgoing ones). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** pg's own errors for a broken or unobtainable connection carry no code, only these messages. */
const PG_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable|Cannot use a pool after calling end)/;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

/** The storage failure an error is, or null when it is anything else. */
export function storageFailure(error: unknown): StorageFailure | null {
  if (!error || typeof error !== 'object') return null;
  const code = codeOf(error);
  const full = (reason: string): StorageFailure => ({ status: 507, message: DISK_FULL_MESSAGE, ...(code ? { code } : {}), reason });
  const down = (reason: string): StorageFailure => ({ status: 503, message: UNAVAILABLE_MESSAGE, ...(code ? { code } : {}), reason });
  // SQLite (better-sqlite3 codes), files (uploads, tiles) and PostgreSQL's disk_full (53100).
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return full('the disk is full');
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED') return down('the database is busy');
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) return down('the database file cannot be read or written');
  if (NETWORK_CODES.has(code)) return down('the database is not answering');
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down or starting),
  // 53300 (too many connections).
  if (/^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return down('the database is not answering');
  if (!code && PG_CONNECTION_MESSAGES.test(messageOf(error))) return down('the database connection was lost');
  return null;
}

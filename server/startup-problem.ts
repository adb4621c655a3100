/**
 * Why the server could not start, as one line an operator can act on (docs/SERVER.md
 * "Start-up errors"): the failures that come from the machine or the settings (a port in use, a
 * host that is no address here, a data folder that cannot be written, a PostgreSQL server that
 * is down, refuses the password or has no such database) by their error codes. Anything else is
 * a fault of raidmap itself: null, and the caller prints the whole error.
 */

export interface StartupContext {
  host: string;
  port: number;
  dataDir: string;
  /** The PostgreSQL URL when the server runs on one (its password is never printed). */
  databaseUrl?: string;
}

interface ErrorLike {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
  message?: unknown;
}

/** `postgres://user@host:5432/db`, without the password, or the URL's parts for a message. */
function postgresParts(url: string | undefined): { where: string; user: string; database: string } | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return {
      where: `${u.hostname || 'localhost'}:${u.port || '5432'}`,
      user: decodeURIComponent(u.username) || '(the default user)',
      database: decodeURIComponent(u.pathname.replace(/^\//, '')) || '(the default database)',
    };
  } catch {
    return null;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Whether the error came from opening the listening socket (not from a database connection). */
function fromListen(e: ErrorLike, context: StartupContext): boolean {
  if (e.syscall === 'listen' || e.syscall === 'bind') return true;
  // A host name that does not resolve fails in getaddrinfo before listen.
  return e.syscall === 'getaddrinfo' && text(e.hostname) === context.host;
}

/** One line saying why the start failed and what to change, or null for an error of raidmap itself. */
export function startupProblem(error: unknown, context: StartupContext): string | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as ErrorLike;
  const code = text(e.code);
  const pg = postgresParts(context.databaseUrl);

  if (fromListen(e, context)) {
    const at = `${context.host}:${context.port}`;
    if (code === 'EADDRINUSE') return `port ${context.port} on ${context.host} is in use (another server, or raidmap already running): stop it or set PORT to a free port`;
    if (code === 'EACCES') return `not allowed to listen on ${at}: ports under 1024 need privileges; set PORT to 1024 or more (and put a proxy in front)`;
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return `HOST=${context.host} is not an address of this machine: use 127.0.0.1 (this machine only), 0.0.0.0 (every network) or one of its own addresses`;
    }
    return `could not listen on ${at}: ${text(e.message) || code}`;
  }

  const path = text(e.path);
  if (path && (code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC' || code === 'EEXIST')) {
    const why: Record<string, string> = {
      ENOTDIR: 'a part of the path is a file, not a folder',
      EACCES: 'no permission to write there',
      EPERM: 'no permission to write there',
      EROFS: 'the disk is read-only',
      ENOSPC: 'the disk is full',
      EEXIST: 'a file stands where a folder must be',
    };
    return `cannot write ${path} (${why[code]}): check DATA_DIR (now ${context.dataDir}) and TILES_DIR`;
  }

  if (pg) {
    if (code === 'ECONNREFUSED') return `PostgreSQL at ${pg.where} refused the connection: is it running, and is DATABASE_URL's host and port right?`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `PostgreSQL host ${pg.where} was not found: check DATABASE_URL's host`;
    if (code === 'ETIMEDOUT') return `PostgreSQL at ${pg.where} did not answer in time: check DATABASE_URL and the network`;
    if (code === '28P01') return `PostgreSQL refused the password of user ${pg.user}: check DATABASE_URL`;
    if (code === '3D000') return `PostgreSQL at ${pg.where} has no database ${pg.database}: create it (createdb ${pg.database}) or fix DATABASE_URL`;
    if (code === '28000') return `PostgreSQL at ${pg.where} does not let user ${pg.user} in: ${text(e.message)} (check pg_hba.conf, or add ?sslmode=require to DATABASE_URL if the server wants SSL)`;
    if (code === '42501') return `PostgreSQL user ${pg.user} may not create what raidmap needs: ${text(e.message)} (grant it, or set DATABASE_SCHEMA to a schema it owns)`;
    if (/self[- ]signed certificate|certificate|SSL/i.test(text(e.message)) && !code.startsWith('2')) {
      return `PostgreSQL at ${pg.where}: ${text(e.message)} (check DATABASE_URL's sslmode)`;
    }
  }
  return null;
}

/**
 * Server settings read from the environment (see docs/SERVER.md). Parsing is pure: it takes
 * the environment as an argument and throws a ConfigError naming the bad variable.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAP_IDS, isMapId, type MapId } from '../src/domain/maps';
import { DEFAULT_TILE_CACHE_MAX_MB, DEFAULT_TILE_MEMORY_MB, DEFAULT_TILE_RENDERS_PER_MINUTE } from './tiles/settings';
import { DEFAULT_UPLOAD_RETENTION_HOURS } from './uploads/sweeper';
import { DEFAULT_CONNECTION_LIMITS, cdnOrigin, parseFrameAncestors, type ConnectionLimits, type SecurityOptions } from './http/security';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  tilesDir: string;
  uploadsDir: string;
  /** `postgres://…` selects PostgreSQL; undefined selects the SQLite file `sqliteFile`. */
  databaseUrl?: string;
  /** PostgreSQL only: the schema the site's tables live in (DATABASE_SCHEMA); default the role's search_path. */
  databaseSchema?: string;
  sqliteFile: string;
  markersPerMap: number;
  seedMaps: MapId[];
  /** Create the demo accounts visitor / pro / admin (password `demo`) in an empty users table. Default on; `DEMO_ACCOUNTS=0` turns it off. */
  demoAccounts: boolean;
  /**
   * The on-demand tile cache's budget in bytes (TILE_CACHE_MAX_MB), the hot tiles kept in
   * memory (TILE_MEMORY_MB) and the uncached tile renders one address may start a minute
   * (TILE_RENDERS_PER_MINUTE).
   */
  tileCache: { maxBytes: number; memoryBytes: number; rendersPerMinute: number };
  /** An uploaded image no marker uses is removed this long after its marker last changed (UPLOAD_RETENTION_HOURS). */
  uploadRetentionMs: number;
  /** Project folders (defaults relative to the repository root). */
  distDir: string;
  assetsDir: string;
  /** Time-outs and the per-address connection cap (server/http/security.ts). */
  limits: ConnectionLimits;
  /** CSP extras: the CDN origin of VITE_CDN_BASE, OVERLAY_FRAME_ANCESTORS. */
  security: Required<SecurityOptions>;
  /** Pino level of the server's log (LOG_LEVEL; LOG_REQUESTS=1 means info). */
  logLevel: LogLevel;
  /** Bearer token that may read GET /api/be/metrics besides admins (METRICS_TOKEN). */
  metricsToken?: string;
  /** The reverse proxies whose X-Forwarded-* headers are believed (TRUST_PROXY); false: none. */
  trustProxy: TrustProxy;
}

/** Fastify's `trustProxy`: proxy addresses, CIDR ranges and proxy-addr names, or none. */
export type TrustProxy = string[] | false;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new ConfigError(name, `expected a whole number from 0 to ${max}, got "${raw}"`);
  }
  return value;
}

export function parseSeedMaps(raw: string | undefined): MapId[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'all') return [...MAP_IDS];
  const ids = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !isMapId(id));
  if (unknown.length > 0) {
    throw new ConfigError('SEED_MAPS', `unknown map id(s) ${unknown.join(', ')}; known: ${MAP_IDS.join(', ')}`);
  }
  return [...new Set(ids)] as MapId[];
}

export function parseFlag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'on', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'off', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `expected 1 or 0 (on/off), got "${env[name]}"`);
}

/** Time-outs and the connection cap from the environment; headers ≤ request when both are on. */
export function parseLimits(env: NodeJS.ProcessEnv): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  const limits: ConnectionLimits = {
    headersTimeoutMs: positiveInt(env, 'HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 3_600_000),
    requestTimeoutMs: positiveInt(env, 'REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 3_600_000),
    keepAliveTimeoutMs: positiveInt(env, 'KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 3_600_000),
    connectionTimeoutMs: positiveInt(env, 'CONNECTION_TIMEOUT_MS', d.connectionTimeoutMs, 3_600_000),
    checkIntervalMs: d.checkIntervalMs,
    maxConnectionsPerAddress: positiveInt(env, 'MAX_CONNECTIONS_PER_ADDRESS', d.maxConnectionsPerAddress, 1_000_000),
  };
  if (limits.keepAliveTimeoutMs === 0) throw new ConfigError('KEEP_ALIVE_TIMEOUT_MS', 'must be at least 1 (Fastify reads 0 as its 72 s default)');
  if (limits.headersTimeoutMs > 0 && limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`);
  }
  return limits;
}

export function parseSecurity(env: NodeJS.ProcessEnv): Required<SecurityOptions> {
  const wrap = <T>(name: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw new ConfigError(name, (error as Error).message);
    }
  };
  const cdn = wrap('VITE_CDN_BASE', () => cdnOrigin(env.VITE_CDN_BASE));
  return {
    imgOrigins: cdn ? [cdn] : [],
    overlayFrameAncestors: wrap('OVERLAY_FRAME_ANCESTORS', () => parseFrameAncestors(env.OVERLAY_FRAME_ANCESTORS)),
  };
}

/** LOG_LEVEL (default warn); the older LOG_REQUESTS=1 is info. */
export function parseLogLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (raw === undefined || raw === '') return parseFlag(env, 'LOG_REQUESTS', false) ? 'info' : 'warn';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  return raw as LogLevel;
}

/** METRICS_TOKEN: unset or empty for none; otherwise 32 to 256 visible ASCII characters. */
export function parseMetricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.METRICS_TOKEN?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{32,256}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN', 'expected 32 to 256 visible ASCII characters without spaces (e.g. `openssl rand -hex 32`)');
  }
  return raw;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: who may tell the server the client's address (X-Forwarded-For, -Proto, -Host):
 * comma-separated proxy addresses or CIDR ranges (`10.0.0.0/8`) or the names loopback,
 * linklocal, uniquelocal. Unset: nobody, the socket's address is the client's. Never
 * "everyone" (nor a hop count): any client could then pick its own address and escape every
 * per-address limit.
 */
export function parseTrustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return false;
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const ok = PROXY_NAMES.includes(entry) || (family !== 0 && extra === undefined && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits)));
    if (!ok) throw new ConfigError('TRUST_PROXY', `expected proxy addresses or CIDR ranges (10.0.0.0/8), loopback, linklocal or uniquelocal; got "${entry}"`);
  }
  return entries;
}

/**
 * A data folder on a kernel file system is never meant (a mistyped variable) and cannot work:
 * nothing can be created there, and a recursive mkdir on /proc does not even fail, it hangs.
 */
const KERNEL_FOLDERS = ['/proc', '/sys'];

function folderSetting(name: string, folder: string): string {
  const inKernel = KERNEL_FOLDERS.find((k) => folder === k || folder.startsWith(`${k}/`));
  if (inKernel) throw new ConfigError(name, `${folder} is on the kernel's ${inKernel} file system, where nothing can be stored: choose a folder on a disk`);
  return folder;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const dataDir = folderSetting('DATA_DIR', path.resolve(cwd, env.DATA_DIR?.trim() || 'data'));
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'expected a postgres:// or postgresql:// URL (leave it unset for SQLite)');
  }
  const databaseSchema = env.DATABASE_SCHEMA?.trim() || undefined;
  if (databaseSchema !== undefined) {
    if (databaseUrl === undefined) throw new ConfigError('DATABASE_SCHEMA', 'only applies to PostgreSQL: set DATABASE_URL too');
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) throw new ConfigError('DATABASE_SCHEMA', `expected a lower-case identifier (a-z, 0-9, _), got "${databaseSchema}"`);
  }
  return {
    port: positiveInt(env, 'PORT', 8080, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir,
    tilesDir: folderSetting('TILES_DIR', path.resolve(cwd, env.TILES_DIR?.trim() || path.join(dataDir, 'tiles'))),
    uploadsDir: path.join(dataDir, 'uploads'),
    databaseUrl,
    databaseSchema,
    sqliteFile: path.join(dataDir, 'raidmap.sqlite'),
    markersPerMap: positiveInt(env, 'MARKERS_PER_MAP', 320, 1_000_000),
    seedMaps: parseSeedMaps(env.SEED_MAPS),
    demoAccounts: parseFlag(env, 'DEMO_ACCOUNTS', true),
    tileCache: {
      maxBytes: positiveInt(env, 'TILE_CACHE_MAX_MB', DEFAULT_TILE_CACHE_MAX_MB, 16 * 1024 * 1024) * 1024 * 1024,
      memoryBytes: positiveInt(env, 'TILE_MEMORY_MB', DEFAULT_TILE_MEMORY_MB, 64 * 1024) * 1024 * 1024,
      rendersPerMinute: positiveInt(env, 'TILE_RENDERS_PER_MINUTE', DEFAULT_TILE_RENDERS_PER_MINUTE, 100_000),
    },
    uploadRetentionMs: positiveInt(env, 'UPLOAD_RETENTION_HOURS', DEFAULT_UPLOAD_RETENTION_HOURS, 24 * 365) * 3_600_000,
    distDir: path.resolve(cwd, env.DIST_DIR?.trim() || path.join(REPO_ROOT, 'dist')),
    assetsDir: path.resolve(cwd, env.ASSETS_DIR?.trim() || path.join(REPO_ROOT, 'assets')),
    limits: parseLimits(env),
    security: parseSecurity(env),
    logLevel: parseLogLevel(env),
    metricsToken: parseMetricsToken(env),
    trustProxy: parseTrustProxy(env),
  };
}

/** Command-line options of `npm run soak` (pure parsing, with clear errors for bad input). */
import os from 'node:os';
import path from 'node:path';

export type SoakDb = 'sqlite' | 'pg';

export interface SoakOptions {
  /** Length of the read/write mix (seconds). */
  seconds: number;
  /** Reader connections of the mix (each one request at a time). */
  concurrency: number;
  /** Admin writes a second during the mix (add, update with version, delete with version, in turn); 0: reads only. */
  writesPerSecond: number;
  /** Databases to run on, in order. */
  dbs: SoakDb[];
  /** PostgreSQL URL (from --database-url, DATABASE_URL or TEST_DATABASE_URL) when pg is among `dbs`. */
  databaseUrl?: string;
  /** Which parts run: the read/write mix, the kill -9 during a write burst. */
  parts: { mix: boolean; kill: boolean };
  /** Kill -9 this long after the write burst starts (ms). */
  killAfterMs: number;
  /** Concurrent writers of the burst. */
  killWriters: number;
  /** Sample markers seeded on customs (MARKERS_PER_MAP). */
  markers: number;
  /** Tile folder kept between runs, so the server's background tile build is done once. */
  tilesDir: string;
}

export const DEFAULT_SOAK_OPTIONS: Omit<SoakOptions, 'tilesDir'> = {
  seconds: 20,
  concurrency: 50,
  writesPerSecond: 100,
  dbs: ['sqlite'],
  parts: { mix: true, kill: true },
  killAfterMs: 2000,
  killWriters: 16,
  markers: 320,
};

export const SOAK_USAGE = `usage: npm run soak -- [--seconds 20] [--concurrency 50] [--writes-per-second 100] [--db sqlite|pg|both] [--pg]
       [--database-url postgres://…] [--mix | --kill] [--kill-after-ms 2000] [--kill-writers 16] [--markers 320] [--tiles-dir DIR]
  --db pg (or --pg) runs on PostgreSQL: --database-url, else DATABASE_URL, else TEST_DATABASE_URL; each run uses a fresh schema, dropped afterwards
  --mix      only the read/write mix;  --kill   only the kill -9 during a write burst;  default both
  Only a local server that the run starts itself is ever loaded.`;

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const text = value.trim().replace(/_/g, '');
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`${flag} needs a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

export function parseSoakOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): SoakOptions {
  const options: SoakOptions = {
    ...DEFAULT_SOAK_OPTIONS,
    dbs: [...DEFAULT_SOAK_OPTIONS.dbs],
    parts: { ...DEFAULT_SOAK_OPTIONS.parts },
    tilesDir: path.join(os.tmpdir(), 'raidmap-soak-tiles'),
  };
  let only: 'mix' | 'kill' | undefined;
  let url: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${SOAK_USAGE}`);
      return v;
    };
    switch (flag) {
      case '--seconds':
        options.seconds = wholeNumber(flag, value(), 1, 600);
        break;
      case '--concurrency':
        options.concurrency = wholeNumber(flag, value(), 1, 1000);
        break;
      case '--writes-per-second':
        options.writesPerSecond = wholeNumber(flag, value(), 0, 5000);
        break;
      case '--db': {
        const v = value().trim().toLowerCase();
        if (v === 'sqlite') options.dbs = ['sqlite'];
        else if (v === 'pg' || v === 'postgres' || v === 'postgresql') options.dbs = ['pg'];
        else if (v === 'both') options.dbs = ['sqlite', 'pg'];
        else throw new Error(`--db needs sqlite, pg or both, got "${v}"`);
        break;
      }
      case '--pg':
        options.dbs = ['pg'];
        break;
      case '--database-url':
        url = value();
        break;
      case '--mix':
      case '--kill': {
        const part = flag === '--mix' ? 'mix' : 'kill';
        if (only && only !== part) throw new Error('--mix and --kill together are the default: give neither');
        only = part;
        break;
      }
      case '--kill-after-ms':
        options.killAfterMs = wholeNumber(flag, value(), 100, 600_000);
        break;
      case '--kill-writers':
        options.killWriters = wholeNumber(flag, value(), 1, 256);
        break;
      case '--markers':
        options.markers = wholeNumber(flag, value(), 1, 1_000_000);
        break;
      case '--tiles-dir':
        options.tilesDir = path.resolve(value());
        break;
      case '--help':
      case '-h':
        throw new Error(SOAK_USAGE);
      default:
        throw new Error(`unknown option "${arg}"\n${SOAK_USAGE}`);
    }
  }
  if (only) options.parts = { mix: only === 'mix', kill: only === 'kill' };
  if (options.dbs.includes('pg')) {
    const found = url ?? env.DATABASE_URL ?? env.TEST_DATABASE_URL;
    if (!found || found.trim() === '') throw new Error('--db pg needs a PostgreSQL URL: --database-url, DATABASE_URL or TEST_DATABASE_URL (scripts/ensure-postgres.sh prints one)');
    if (!/^postgres(ql)?:\/\//.test(found)) throw new Error(`the PostgreSQL URL must start with postgres:// or postgresql://, got "${found}"`);
    options.databaseUrl = found;
  }
  return options;
}

/** A fresh PostgreSQL schema name for one server run (a lower-case identifier, DATABASE_SCHEMA). */
export function soakSchemaName(pid: number, now: number, part: string): string {
  const name = `soak_${part}_${pid}_${now.toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return name.slice(0, 63);
}

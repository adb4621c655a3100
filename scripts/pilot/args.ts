/**
 * The watcher's command line: `npm run pilot -- [options]`. Pure: the platform, the
 * environment and a way to test whether a folder exists are passed in, so the defaults of
 * every OS can be tested anywhere.
 */
import path from 'node:path';
import { normalizePairingCode, pairingCodeProblem } from '../../src/domain/pilot';

export const DEFAULT_SERVER = 'http://localhost:8080';

export const USAGE = `usage: npm run pilot -- [options]

Sends your position (from each game screenshot) and the map of each raid (from the game's
logs) to a raidmap server, so a page following your pairing code shows you on the map.

  --server URL        raidmap server (default ${DEFAULT_SERVER})
  --screenshots DIR   the game's screenshot folder
                      (default: Documents/Escape from Tarkov/Screenshots of your user folder)
  --logs DIR          the game's Logs folder, to follow map changes
                      (default on Windows: C:/Battlestate Games/Escape from Tarkov/Logs;
                      elsewhere map changes are followed only when given)
  --code CODE         reuse a pairing (needs --token too)
  --token TOKEN       the publisher token of that pairing
  --delete            delete each screenshot once its position is read (off by default)
  -h, --help          show this help`;

export class UsageError extends Error {}

export interface PilotOptions {
  /** Server origin (and path prefix, if any) without a trailing slash. */
  server: string;
  screenshots: string;
  /** The game's Logs folder, or null to not follow map changes. */
  logs: string | null;
  /** A pairing to reuse (both or neither). */
  pairing: { code: string; token: string } | null;
  deleteScreenshots: boolean;
}

export type ParsedArgs = { help: true } | ({ help: false } & PilotOptions);

export interface ArgsEnvironment {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
  /** Whether a folder exists (picks among the usual places of a folder); false by default. */
  exists?: (dir: string) => boolean;
}

/** The first existing of the candidates, else the first (the watcher then waits for it). */
function firstExisting(candidates: string[], exists: (dir: string) => boolean): string {
  return candidates.find((dir) => exists(dir)) ?? candidates[0];
}

/** Where the game saves screenshots: Documents, or OneDrive's Documents when that one exists. */
export function defaultScreenshotsDir(environment: ArgsEnvironment): string {
  const { platform, env, homedir, exists = () => false } = environment;
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir;
  const tail = ['Escape from Tarkov', 'Screenshots'];
  const candidates = [join(home, 'Documents', ...tail)];
  if (platform === 'win32') {
    const oneDrive = env.OneDrive || env.OneDriveConsumer;
    if (oneDrive) candidates.push(join(oneDrive, 'Documents', ...tail));
    candidates.push(join(home, 'OneDrive', 'Documents', ...tail));
  }
  return firstExisting(candidates, exists);
}

/** The game's Logs folder on Windows (the launcher's two usual install folders); null elsewhere. */
export function defaultLogsDir(environment: ArgsEnvironment): string | null {
  if (environment.platform !== 'win32') return null;
  const drive = environment.env.SystemDrive || 'C:';
  const candidates = ['Escape from Tarkov', 'EFT'].map((game) => path.win32.join(`${drive}\\`, 'Battlestate Games', game, 'Logs'));
  return firstExisting(candidates, environment.exists ?? (() => false));
}

function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server: "${value}" is not a URL (like ${DEFAULT_SERVER})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--server: use an http:// or https:// URL, not ${url.protocol}`);
  if (url.search || url.hash) throw new UsageError('--server: give the server address only, without ? or #');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

const VALUE_FLAGS = new Set(['--server', '--screenshots', '--logs', '--code', '--token']);

export function parseArgs(argv: readonly string[], environment: ArgsEnvironment): ParsedArgs {
  const values = new Map<string, string>();
  let deleteScreenshots = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '--delete') {
      deleteScreenshots = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUE_FLAGS.has(flag)) {
      throw new UsageError(arg.startsWith('-') ? `unknown option ${arg}` : `unexpected argument ${arg}`);
    }
    let value: string | undefined;
    if (flag !== arg) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    }
    if (value.trim() === '') throw new UsageError(`${flag} needs a value`);
    if (values.has(flag)) throw new UsageError(`${flag} is given twice`);
    values.set(flag, value);
  }

  const rawCode = values.get('--code');
  const token = values.get('--token');
  let pairing: PilotOptions['pairing'] = null;
  if (rawCode !== undefined || token !== undefined) {
    if (rawCode === undefined || token === undefined) throw new UsageError('--code and --token go together (the code alone cannot publish)');
    const code = normalizePairingCode(rawCode);
    if (code === null) throw new UsageError(`--code ${pairingCodeProblem(rawCode) ?? 'is not a pairing code'}`);
    pairing = { code, token: token.trim() };
  }

  const resolveDir = (dir: string) => (environment.platform === 'win32' ? path.win32.resolve(dir) : path.resolve(dir));
  const screenshots = values.get('--screenshots');
  const logs = values.get('--logs');
  return {
    help: false,
    server: serverUrl(values.get('--server') ?? DEFAULT_SERVER),
    screenshots: screenshots === undefined ? defaultScreenshotsDir(environment) : resolveDir(screenshots),
    logs: logs === undefined ? defaultLogsDir(environment) : resolveDir(logs),
    pairing,
    deleteScreenshots,
  };
}

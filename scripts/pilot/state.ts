/**
 * The watcher's memory between runs: the last pairing (server, code, token, expiry) in a small
 * JSON file in the user's config folder, so a restart keeps the code the phone already follows.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { normalizePairingCode } from '../../src/domain/pilot';

export interface SavedPairing {
  server: string;
  code: string;
  token: string;
  /** ISO date the server gave; the pairing is not reused after it. */
  expiresAt: string;
}

const savedPairingSchema = z.object({
  server: z.string().min(1),
  code: z.string().refine((code) => normalizePairingCode(code) === code),
  token: z.string().min(1),
  expiresAt: z.string().refine((date) => !Number.isNaN(Date.parse(date))),
});

const STATE_FILE = 'pilot.json';

/**
 * `%APPDATA%\raidmap\pilot.json` on Windows, `~/Library/Application Support/raidmap/pilot.json`
 * on macOS, `$XDG_CONFIG_HOME/raidmap/pilot.json` (default `~/.config`) elsewhere.
 */
export function stateFilePath(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  if (platform === 'win32') {
    const appData = env.APPDATA || path.win32.join(env.USERPROFILE || homedir, 'AppData', 'Roaming');
    return path.win32.join(appData, 'raidmap', STATE_FILE);
  }
  if (platform === 'darwin') return path.posix.join(homedir, 'Library', 'Application Support', 'raidmap', STATE_FILE);
  const config = env.XDG_CONFIG_HOME && path.posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.posix.join(homedir, '.config');
  return path.posix.join(config, 'raidmap', STATE_FILE);
}

/** The saved pairing, or null when there is none or the file is unreadable (it is then ignored). */
export async function loadPairing(file: string): Promise<SavedPairing | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = savedPairingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Saves the pairing (readable by the user only: the token lets anyone publish to the code). */
export async function savePairing(file: string, pairing: SavedPairing): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(pairing, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temp, file);
}

/** Forgets the saved pairing (after the server refused its token). */
export async function forgetPairing(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

/** Shared by the watcher's tests (scripts/pilot/*.test.ts): temp folders, polling, screenshot names. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh temp folder; `cleanup` removes every folder made so far. */
const made: string[] = [];
export function tempDir(prefix = 'raidmap-pilot-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 4000, what = 'condition'): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A screenshot name as the game writes it: x, z (height), y in the game's order; looking east. */
export function screenshotName(x: number, y: number, z = 1.5, index = 0): string {
  return `2025-03-14[19-07]_${x.toFixed(2)}, ${z.toFixed(2)}, ${y.toFixed(2)}_0.00000, 0.70711, 0.00000, 0.70711_15.64 (${index}).png`;
}

/**
 * Pure rules of the watcher (`npm run pilot`, scripts/pilot): which screenshot files hold a
 * position, how long to wait before retrying a request, and the short lines it prints.
 */
import { pilotPositionSchema } from './pilot';
import { recogniseScreenshotName, type PlayerPosition } from './position';

/** The image types the game saves screenshots as. */
const SCREENSHOT_EXTENSION = /\.(png|jpe?g|bmp)$/i;

/**
 * The position a screenshot file (a base name or a path) holds, or null when the file is not a
 * game screenshot with a position the server would accept (other files in the folder, a
 * half-renamed temp file, an out-of-range coordinate).
 */
export function positionFromScreenshotFile(file: string): PlayerPosition | null {
  const name = file.split(/[\\/]/).pop() ?? '';
  if (!SCREENSHOT_EXTENSION.test(name)) return null;
  const position = recogniseScreenshotName(name);
  if (position === null) return null;
  return pilotPositionSchema.safeParse(position).success ? position : null;
}

/** First retry after this long; each failure doubles it up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 1000;
/** Retries never wait longer than this (the server restarting is back within seconds). */
export const RETRY_MAX_MS = 30_000;

/**
 * Delay (ms) before retry number `attempt` (1 for the first retry): 1 s, 2 s, 4 s … capped at
 * RETRY_MAX_MS. A server's Retry-After (ms, from parseRetryAfter) wins when longer, still
 * capped, so a rate-limited watcher waits as told but never hangs on a silly value.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | null = null, base = RETRY_BASE_MS, max = RETRY_MAX_MS): number {
  const n = Math.max(1, Math.floor(attempt));
  const exponential = Math.min(max, base * 2 ** Math.min(n - 1, 30));
  if (retryAfterMs === null || !(retryAfterMs > exponential)) return exponential;
  return Math.min(max, retryAfterMs);
}

/**
 * A Retry-After header in ms: delay-seconds (`"5"`) or an HTTP date (relative to `now`).
 * Null when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (text === '') return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (!/[a-z]/i.test(text) || Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** A wait in whole seconds for a human: `4 s` (never `0 s`). */
export function secondsText(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}

const metres = (value: number) => String(Math.round(value * 10) / 10);

/** `position -153.2, 88.7 (height 2.4)`: ground plane then height, as the map reads them. */
export function positionText(position: PlayerPosition): string {
  return `position ${metres(position.x)}, ${metres(position.y)} (height ${metres(position.z)})`;
}

/**
 * `no page follows the code`, `1 page follows the code`, `3 pages follow the code`. (Never the
 * word "watching": the watcher prints `watching <dir>` once, when it is ready, and tools wait
 * for that word.)
 */
export function watchersText(watchers: number): string {
  if (watchers <= 0) return 'no page follows the code';
  return watchers === 1 ? '1 page follows the code' : `${watchers} pages follow the code`;
}

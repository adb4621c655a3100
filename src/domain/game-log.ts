/**
 * The game's logs name the location of each raid: the `application` log's
 * `TRACE-NetworkGameCreate` line carries `Location: <id>` (e.g. `Location: bigmap,`). These
 * rules turn such a line into raidmap's map id; the watcher (scripts/pilot) follows the logs
 * and sends a map change when one appears.
 */
import type { MapId } from './maps';

/** The game's location ids (case-insensitive) → raidmap's map ids. */
export const LOCATION_TO_MAP: Readonly<Record<string, MapId>> = Object.freeze({
  bigmap: 'customs',
  factory4_day: 'factory',
  factory4_night: 'factory',
  rezervbase: 'reserve',
  laboratory: 'lab',
  tarkovstreets: 'streets',
  sandbox: 'ground-zero',
  sandbox_high: 'ground-zero',
  shoreline: 'shoreline',
  woods: 'woods',
  interchange: 'interchange',
  lighthouse: 'lighthouse',
  labyrinth: 'labyrinth',
  develop: 'dev',
});

/** raidmap's map id of a game location id, or null for one it does not know (a hideout, a new map). */
export function mapIdFromLocation(location: string): MapId | null {
  return LOCATION_TO_MAP[location.trim().toLowerCase()] ?? null;
}

const GAME_CREATE = 'TRACE-NetworkGameCreate';
const LOCATION = /\bLocation:\s*([A-Za-z0-9_]+)/;

/** The location id a log line names when a raid is created, or null for any other line. */
export function locationFromLogLine(line: string): string | null {
  if (!line.includes(GAME_CREATE)) return null;
  return LOCATION.exec(line)?.[1] ?? null;
}

/** The map a log line starts a raid on, or null (another line, or a location raidmap has no map of). */
export function mapIdFromLogLine(line: string): MapId | null {
  const location = locationFromLogLine(line);
  return location === null ? null : mapIdFromLocation(location);
}

/** Whether a file in a `log_*` folder is one of the application logs the watcher follows. */
export function isApplicationLog(fileName: string): boolean {
  return /application.*\.log$/i.test(fileName);
}

/**
 * The newest of the game's log folders (`log_2025.03.14_19-02-11_0.16.1.3.35392`): their names
 * sort by date, so the greatest name is the newest. Null when there is none.
 */
export function newestLogFolder(names: readonly string[]): string | null {
  let newest: string | null = null;
  for (const name of names) if (/^log_/i.test(name) && (newest === null || name > newest)) newest = name;
  return newest;
}

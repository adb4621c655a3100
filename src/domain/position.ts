/**
 * Where am I: the player's position from a game screenshot's file name or the `#pos=` hash.
 *
 * Convention (spec §3 "Player position" {x, y, z, look}): the game writes X, Y, Z with Y as the
 * height. The spec's position keeps the ground plane in x and y and the height in z (z picks
 * the level by height range):  x = game X,  y = game Z,  z = game Y (height).
 * `look` is the camera's yaw in degrees: 0 looks along game +Z, 90 along game +X.
 */
import type { MapDefinition } from './maps';
import { switchLayout } from './keyboard-layout';
import { gameToMap, round4, type MapPoint } from './transform';

export interface PlayerPosition {
  x: number;
  y: number;
  z: number;
  look: number | null;
}

export const NO_POSITION: PlayerPosition = Object.freeze({ x: 0, y: 0, z: 0, look: null });

const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
// The position ends at the next "_" or, for a name cut right after it ("…_163.0, 1.5, -35.0"),
// at the end of the text.
const TRIPLE = new RegExp(String.raw`_\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*(?=_|$)`);
const QUAD = new RegExp(String.raw`_\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*(?=_|$)`);

/**
 * Parses `2024-05-01[12-34]_123.45, 6.78, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png`.
 * Any number of decimals and signs is accepted, and a name cut right after the position. A name without a position gives NO_POSITION
 * (spec §5: all values 0, look null); a name with a position but no valid rotation gives look null.
 */
export function parseScreenshotName(fileName: string): PlayerPosition {
  return recogniseScreenshotName(fileName) ?? { ...NO_POSITION };
}

/** As parseScreenshotName, but null when the name holds no position (so the UI can say so). */
export function recogniseScreenshotName(fileName: string): PlayerPosition | null {
  const text = fileName.trim();
  const pos = TRIPLE.exec(text);
  if (!pos) return null;
  const [gameX, gameY, gameZ] = pos.slice(1, 4).map(Number);
  if (![gameX, gameY, gameZ].every(Number.isFinite)) return null;
  const rest = text.slice(pos.index + pos[0].length);
  const quat = QUAD.exec(rest);
  const look = quat ? yawFromQuaternion(quat.slice(1, 5).map(Number) as [number, number, number, number]) : null;
  return { x: gameX, y: gameZ, z: gameY, look };
}

/**
 * Why a name that holds no position was not read, when a cheap guess can tell: it was typed with
 * the Russian layout on ("163ю0б 1ю5б -35ю0": б and ю for "," and "."), or its numbers have
 * decimal commas ("163,0, 1,5, -35,0"). Either is refused, not guessed into a position: the user
 * is told what to fix. Null: no guess (or the name is read as it is).
 */
export type ScreenshotNameProblem = 'russianLayout' | 'decimalComma';
export function screenshotNameProblem(fileName: string): ScreenshotNameProblem | null {
  if (recogniseScreenshotName(fileName)) return null;
  const switched = switchLayout(fileName);
  if (switched !== null && /[бю]/i.test(fileName) && recogniseScreenshotName(switched)) return 'russianLayout';
  if (recogniseScreenshotName(fileName.replace(/(\d),(\d)/g, '$1.$2'))) return 'decimalComma';
  return null;
}

/** Yaw (degrees, [0, 360)) of a Unity rotation quaternion (qx, qy, qz, qw), Y up; null if degenerate. */
export function yawFromQuaternion([qx, qy, qz, qw]: [number, number, number, number]): number | null {
  const norm = Math.hypot(qx, qy, qz, qw);
  if (!Number.isFinite(norm) || norm < 1e-9) return null;
  const [x, y, z, w] = [qx / norm, qy / norm, qz / norm, qw / norm];
  // The camera's forward vector (0, 0, 1) rotated by q, projected on the ground plane.
  const forwardX = 2 * (x * z + w * y);
  const forwardZ = 1 - 2 * (x * x + y * y);
  if (Math.hypot(forwardX, forwardZ) < 1e-9) return null;
  return normalizeDegrees(round4((Math.atan2(forwardX, forwardZ) * 180) / Math.PI));
}

/** `#pos=x_y_z` with exactly three numeric parts, else null (the hash is then ignored). */
export function parsePosHash(hash: string): PlayerPosition | null {
  const match = /^#?pos=([^&]*)$/.exec(hash.trim());
  if (!match) return null;
  const parts = match[1].split('_');
  if (parts.length !== 3 || parts.some((p) => !new RegExp(`^${NUM}$`).test(p))) return null;
  const [x, y, z] = parts.map(Number);
  return { x, y, z, look: null };
}

/**
 * A `#pos=` hash that is there but not three numbers (`#pos=1_2`, `#pos=a_b_c`): the text after
 * `pos=` (decoded where it can be), for the page to say what was wrong; null when the hash is
 * a valid position or not a `pos=` hash at all (another page's anchor is left alone).
 */
export function invalidPosHash(hash: string): string | null {
  const match = /^#?pos=(.*)$/s.exec(hash.trim());
  if (!match || parsePosHash(hash)) return null;
  let text = match[1];
  try {
    text = decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: shown as it came.
  }
  return text;
}

export function normalizeDegrees(angle: number): number {
  const a = angle % 360;
  return a < 0 ? a + 360 : a === 0 ? 0 : a;
}

/** Screen angle of the look arrow: look + 270 − the map's rotation (spec §9); null without a look. */
export function lookArrowAngle(look: number | null, map: Pick<MapDefinition, 'transform'>): number | null {
  return look === null ? null : normalizeDegrees(look + 270 - map.transform.rotate);
}

/** The player's position in map pixels. */
export function playerToMap(position: PlayerPosition, map: Pick<MapDefinition, 'transform'>): MapPoint {
  return gameToMap(map.transform, { gameX: position.x, gameZ: position.y });
}

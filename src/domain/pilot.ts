/**
 * The live position feed ("pilot", issue 10): pairing codes and the messages a publisher (the
 * watcher on the player's PC, or the /pilot page) sends to the pages that watch its code.
 * Pure rules, shared by the server, the watcher and the page.
 *
 * A pairing has two secrets of different strength:
 * - the **code** (10 characters from an alphabet without look-alikes, shown as `ABCDE-FGHJK`)
 *   is enough to watch: it is typed on a phone or read from a QR code;
 * - the **publisher token** (long, random, given once at pairing) is needed to publish, so a
 *   guessed or shoulder-surfed code can never inject positions.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { MAP_IDS, MAPS, type MapId } from './maps';
import type { PlayerPosition } from './position';
import { isInside, mapPositionBounds } from './position-bounds';

/** 31 characters: digits and capitals without 0/O, 1/I/L (they are read for one another). */
export const PAIRING_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Characters in a code: 31^10 ≈ 8·10^14 codes, far beyond what rate-limited guessing reaches. */
export const PAIRING_CODE_LENGTH = 10;
/** A pairing not used (watched or published to) for this long is gone. */
export const PAIRING_TTL_MS = 24 * 60 * 60 * 1000;
/** The ping the map draws on each position (spec §9) and the watcher's keep-alive period. */
export const PILOT_PING_MS = 2000;
/** The page's query parameter that connects to a code (`/map/{map}?connection=CODE`). */
export const CONNECTION_PARAM = 'connection';

const ALPHABET_SET = new Set(PAIRING_ALPHABET);

/**
 * A new code from a source of random bytes (crypto.getRandomValues, randomBytes). Rejection
 * sampling keeps every character equally likely (256 is not a multiple of 31).
 */
export function generatePairingCode(randomBytes: (count: number) => Uint8Array): string {
  const limit = 256 - (256 % PAIRING_ALPHABET.length);
  let code = '';
  while (code.length < PAIRING_CODE_LENGTH) {
    for (const byte of randomBytes(PAIRING_CODE_LENGTH * 2)) {
      if (byte >= limit) continue;
      code += PAIRING_ALPHABET[byte % PAIRING_ALPHABET.length];
      if (code.length === PAIRING_CODE_LENGTH) break;
    }
  }
  return code;
}

/**
 * The code as typed or pasted: case, spaces and dashes do not matter. Returns the canonical
 * 10 characters, or null when it cannot be a code (wrong length, or a character outside the
 * alphabet: a typed O or 1 is refused, never silently changed into another code).
 */
export function normalizePairingCode(input: string): string | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  const code = input.replace(/[\s-]+/g, '').toUpperCase();
  if (code.length !== PAIRING_CODE_LENGTH) return null;
  for (const ch of code) if (!ALPHABET_SET.has(ch)) return null;
  return code;
}

/** Why a typed code is not one (for the form's message), or null when it is one. */
export function pairingCodeProblem(input: string): string | null {
  const code = (typeof input === 'string' ? input : '').replace(/[\s-]+/g, '').toUpperCase();
  if (code.length === 0) return 'is empty';
  const bad = [...code].find((ch) => !ALPHABET_SET.has(ch));
  if (bad !== undefined) return `has "${bad}", which codes never contain (they use ${PAIRING_ALPHABET})`;
  if (code.length !== PAIRING_CODE_LENGTH) return `must be ${PAIRING_CODE_LENGTH} characters (got ${code.length})`;
  return null;
}

/** `ABCDEFGHJK` → `ABCDE-FGHJK`, easier to read aloud and to type. */
export function formatPairingCode(code: string): string {
  const half = Math.ceil(code.length / 2);
  return `${code.slice(0, half)}-${code.slice(half)}`;
}

/** The pairing link: any map page with `?connection=CODE` connects to the code with no click. */
export function pairingPath(code: string, map: MapId = 'customs'): string {
  return `/map/${map}?${CONNECTION_PARAM}=${encodeURIComponent(code)}`;
}

/** Game coordinates are metres; no map is more than a few kilometres across. */
const COORDINATE_LIMIT = 100_000;
const buildPositionSchema = () => {
  const coordinate = z.number().finite().min(-COORDINATE_LIMIT).max(COORDINATE_LIMIT);
  return z
    .object({
      x: coordinate,
      y: coordinate,
      z: coordinate,
      look: z.number().finite().min(0).max(360).nullable(),
    })
    .strict();
};

export { MAP_BOUNDS_MARGIN, mapPositionBounds, type PositionBounds } from './position-bounds';


/**
 * Why a published position cannot be on `map` (the publisher's last map), or null when it can.
 * Without a known map (none sent yet, or the server restarted) it must be on one map at least.
 * Only the ground plane is checked: heights pick a level and have no map edge.
 */
export function positionOutsideMapProblem(position: Pick<PlayerPosition, 'x' | 'y'>, map: MapId | null): string | null {
  const where = `x ${position.x}, y ${position.y}`;
  if (map === null) {
    if (MAP_IDS.some((id) => isInside(mapPositionBounds(MAPS[id]), position))) return null;
    return `the position (${where}) is outside every map`;
  }
  const bounds = mapPositionBounds(MAPS[map]);
  if (isInside(bounds, position)) return null;
  return (
    `the position (${where}) is outside ${MAPS[map].name}, the map last sent: ` +
    // Whole metres inside the bounds, so every value the message allows is accepted.
    `x must be within ${Math.ceil(bounds.minX)}…${Math.floor(bounds.maxX)} and y within ${Math.ceil(bounds.minY)}…${Math.floor(bounds.maxY)}`
  );
}

/** Built on first use (lazy-schema.ts), as the schemas below. */
export const pilotPositionSchema = lazySchema(buildPositionSchema);

/**
 * What a publisher sends (one JSON object per request):
 *   { type: 'position', data: { x, y, z, look } }   spec convention (src/domain/position.ts)
 *   { type: 'map', data: { map } }                  a raid on another map began
 *   { type: 'ping' }                                keep-alive; answered with { type: 'pong', watchers }
 */
const buildMessageSchema = () =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('position'), data: pilotPositionSchema.schema }).strict(),
    z.object({ type: z.literal('map'), data: z.object({ map: z.enum(MAP_IDS) }).strict() }).strict(),
    z.object({ type: z.literal('ping') }).strict(),
  ]);

export const pilotMessageSchema = lazySchema(buildMessageSchema);

export type PilotMessage = z.infer<ReturnType<typeof buildMessageSchema>>;

/**
 * What watchers receive (server-sent event `pilot`): a published position or map change, with
 * the server's receive time (epoch ms) so a page can say how old the last update is.
 */
export type PilotEvent =
  | { type: 'position'; data: PlayerPosition; at: number }
  | { type: 'map'; data: { map: MapId }; at: number };

const pilotEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('position'), data: pilotPositionSchema.schema, at: z.number().finite() }),
    z.object({ type: z.literal('map'), data: z.object({ map: z.enum(MAP_IDS) }), at: z.number().finite() }),
  ]),
);

/** A PilotEvent from untrusted JSON, or null. */
export function parsePilotEvent(value: unknown): PilotEvent | null {
  const parsed = pilotEventSchema.safeParse(value);
  return parsed.success ? (parsed.data as PilotEvent) : null;
}

/** The first problem of a message as `field: problem`, for a 400 answer or a log line. */
export function pilotMessageProblem(value: unknown): string | null {
  const parsed = pilotMessageSchema.safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : 'message';
  return `${path}: ${issue.message}`;
}

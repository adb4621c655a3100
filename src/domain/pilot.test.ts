import { describe, expect, it } from 'vitest';
import { MAPS } from './maps';
import { playerToMap } from './position';
import {
  MAP_BOUNDS_MARGIN,
  PAIRING_ALPHABET,
  PAIRING_CODE_LENGTH,
  formatPairingCode,
  generatePairingCode,
  mapPositionBounds,
  normalizePairingCode,
  pairingCodeProblem,
  pairingPath,
  parsePilotEvent,
  pilotMessageProblem,
  pilotMessageSchema,
  positionOutsideMapProblem,
} from './pilot';

/** A byte source that replays `bytes` over and over. */
const replay = (bytes: number[]) => {
  let i = 0;
  return (count: number) => Uint8Array.from({ length: count }, () => bytes[i++ % bytes.length]);
};

describe('pairing codes', () => {
  it('use no look-alike characters', () => {
    for (const ch of '0O1IL') expect(PAIRING_ALPHABET).not.toContain(ch);
    expect(new Set(PAIRING_ALPHABET).size).toBe(PAIRING_ALPHABET.length);
    expect(PAIRING_CODE_LENGTH).toBeGreaterThanOrEqual(8);
  });

  it('are generated from the alphabet only, at full length', () => {
    const code = generatePairingCode((n) => crypto.getRandomValues(new Uint8Array(n)));
    expect(code).toHaveLength(PAIRING_CODE_LENGTH);
    for (const ch of code) expect(PAIRING_ALPHABET).toContain(ch);
  });

  it('skip bytes that would bias the draw (rejection sampling)', () => {
    // 248 = 8 * 31: bytes 248..255 are rejected, so only the 0s count.
    expect(generatePairingCode(replay([255, 250, 248, 0]))).toBe(PAIRING_ALPHABET[0].repeat(PAIRING_CODE_LENGTH));
    expect(generatePairingCode(replay([31 + 2]))).toBe(PAIRING_ALPHABET[2].repeat(PAIRING_CODE_LENGTH));
  });

  it('spread evenly over the alphabet', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      for (const ch of generatePairingCode((n) => crypto.getRandomValues(new Uint8Array(n)))) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(counts.size).toBe(PAIRING_ALPHABET.length);
    const expected = (3000 * PAIRING_CODE_LENGTH) / PAIRING_ALPHABET.length;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.15);
  });

  it('are read whatever the case, spaces and dashes', () => {
    expect(normalizePairingCode('abcde-fghjk')).toBe('ABCDEFGHJK');
    expect(normalizePairingCode(' ABCDE FGHJK ')).toBe('ABCDEFGHJK');
    expect(normalizePairingCode(formatPairingCode('23456789AB'))).toBe('23456789AB');
  });

  it('refuse look-alikes and wrong lengths instead of guessing', () => {
    expect(normalizePairingCode('ABCDE-FGHJ0')).toBeNull();
    expect(normalizePairingCode('ABCDE-FGHJO')).toBeNull();
    expect(normalizePairingCode('ABCDE-FGHJ')).toBeNull();
    expect(normalizePairingCode('ABCDE-FGHJKM')).toBeNull();
    expect(normalizePairingCode('')).toBeNull();
    expect(normalizePairingCode('A'.repeat(100))).toBeNull();
    expect(pairingCodeProblem('ABCDE-FGHJ0')).toMatch(/"0"/);
    expect(pairingCodeProblem('ABC')).toMatch(/10 characters/);
    expect(pairingCodeProblem('')).toBe('is empty');
    expect(pairingCodeProblem('abcde-fghjk')).toBeNull();
  });

  it('are shown in two halves and linked from any map page', () => {
    expect(formatPairingCode('ABCDEFGHJK')).toBe('ABCDE-FGHJK');
    expect(pairingPath('ABCDEFGHJK')).toBe('/map/customs?connection=ABCDEFGHJK');
    expect(pairingPath('ABCDEFGHJK', 'factory')).toBe('/map/factory?connection=ABCDEFGHJK');
  });
});

describe('pilot messages', () => {
  it('accept a position, a map change and a ping', () => {
    expect(pilotMessageSchema.safeParse({ type: 'position', data: { x: 1.5, y: -2, z: 3, look: 90 } }).success).toBe(true);
    expect(pilotMessageSchema.safeParse({ type: 'position', data: { x: 1.5, y: -2, z: 3, look: null } }).success).toBe(true);
    expect(pilotMessageSchema.safeParse({ type: 'map', data: { map: 'customs' } }).success).toBe(true);
    expect(pilotMessageSchema.safeParse({ type: 'ping' }).success).toBe(true);
  });

  it('name the first problem of a bad one', () => {
    expect(pilotMessageProblem({ type: 'position', data: { x: 'a', y: 0, z: 0, look: null } })).toMatch(/^data\.x: /);
    expect(pilotMessageProblem({ type: 'position', data: { x: 1e9, y: 0, z: 0, look: null } })).toMatch(/^data\.x: /);
    expect(pilotMessageProblem({ type: 'position', data: { x: 0, y: 0, z: 0, look: 400 } })).toMatch(/^data\.look: /);
    expect(pilotMessageProblem({ type: 'position', data: { x: 0, y: 0, z: 0 } })).toMatch(/^data\.look: /);
    expect(pilotMessageProblem({ type: 'map', data: { map: 'atlantis' } })).toMatch(/^data\.map: /);
    expect(pilotMessageProblem({ type: 'teleport' })).toMatch(/^type: /);
    expect(pilotMessageProblem({ type: 'ping', extra: 1 })).not.toBeNull();
    expect(pilotMessageProblem(null)).not.toBeNull();
    expect(pilotMessageProblem({ type: 'ping' })).toBeNull();
  });

  it('come back to watchers as events, checked again on the page', () => {
    expect(parsePilotEvent({ type: 'position', data: { x: 1, y: 2, z: 3, look: null }, at: 5 })).toEqual({ type: 'position', data: { x: 1, y: 2, z: 3, look: null }, at: 5 });
    expect(parsePilotEvent({ type: 'map', data: { map: 'lab' }, at: 5 })).toEqual({ type: 'map', data: { map: 'lab' }, at: 5 });
    expect(parsePilotEvent({ type: 'map', data: { map: 'lab' } })).toBeNull();
    expect(parsePilotEvent({ type: 'ping', at: 5 })).toBeNull();
    expect(parsePilotEvent('position')).toBeNull();
  });
});

describe('positions outside the map', () => {
  it('the bounds are the drawing grown by the margin, in game metres (corners land on the grown drawing)', () => {
    const customs = MAPS.customs;
    const bounds = mapPositionBounds(customs);
    const corners = [
      { x: bounds.minX, y: bounds.minY },
      { x: bounds.maxX, y: bounds.maxY },
    ].map((p) => playerToMap({ ...p, z: 0, look: null }, customs));
    const xs = corners.map((c) => c.mapX).sort((a, b) => a - b);
    const ys = corners.map((c) => c.mapY).sort((a, b) => a - b);
    expect(xs[0]).toBeCloseTo(-MAP_BOUNDS_MARGIN * customs.size.width, 6);
    expect(xs[1]).toBeCloseTo((1 + MAP_BOUNDS_MARGIN) * customs.size.width, 6);
    expect(ys[0]).toBeCloseTo(-MAP_BOUNDS_MARGIN * customs.size.height, 6);
    expect(ys[1]).toBeCloseTo((1 + MAP_BOUNDS_MARGIN) * customs.size.height, 6);
    // Without a margin, the drawing itself.
    const tight = mapPositionBounds(customs, 0);
    expect(tight.maxX - tight.minX).toBeCloseTo(customs.size.width / customs.transform.ratio, 6);
  });

  it('refuses a position off the map last sent, with the range it accepts', () => {
    expect(positionOutsideMapProblem({ x: 0, y: 0 }, 'customs')).toBeNull();
    expect(positionOutsideMapProblem({ x: 1e9, y: 0 }, 'customs')).toBe(
      'the position (x 1000000000, y 0) is outside Customs, the map last sent: x must be within -709…1035 and y within -669…599',
    );
    // The Lab's drawing lies away from the game's origin: (0, 0) is off it, (-180, -300) on it.
    expect(positionOutsideMapProblem({ x: 0, y: 0 }, 'lab')).toMatch(/outside The Lab/);
    expect(positionOutsideMapProblem({ x: -180, y: -300 }, 'lab')).toBeNull();
  });

  it('before any map, a position must be on one map at least', () => {
    expect(positionOutsideMapProblem({ x: 0, y: 0 }, null)).toBeNull();
    expect(positionOutsideMapProblem({ x: 1100, y: 0 }, null)).toBeNull();
    expect(positionOutsideMapProblem({ x: 50_000, y: 0 }, null)).toBe('the position (x 50000, y 0) is outside every map');
  });
});

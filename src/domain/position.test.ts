import { describe, expect, it } from 'vitest';
import { MAPS } from './maps';
import { NO_POSITION, invalidPosHash, screenshotNameProblem, lookArrowAngle, parsePosHash, parseScreenshotName, playerToMap, recogniseScreenshotName, yawFromQuaternion } from './position';
import { gameToMap } from './transform';

describe('screenshot file names', () => {
  it('parses position and look from the spec example', () => {
    const p = parseScreenshotName('2024-05-01[12-34]_123.45, 6.78, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png');
    expect(p.x).toBe(123.45);
    expect(p.y).toBe(-90.12);
    expect(p.z).toBe(6.78);
    expect(p.look).not.toBeNull();
    expect(p.look!).toBeGreaterThanOrEqual(0);
    expect(p.look!).toBeLessThan(360);
  });

  it('accepts any number of decimals, signs and no spaces', () => {
    const p = parseScreenshotName('2023-12-31[23-59]_-1,+2.123456789,3._0,0,0,1_0.00 (12).png');
    expect([p.x, p.y, p.z, p.look]).toEqual([-1, 3, 2.123456789, 0]);
  });

  it('gives 0, 0, 0 and look null for names it cannot parse', () => {
    for (const name of ['', 'screenshot.png', '2024-05-01[12-34]_a, b, c_0,0,0,1_1 (0).png', '_1, 2_', '_1e999, 2, 3_']) {
      expect(parseScreenshotName(name), name).toEqual(NO_POSITION);
    }
  });

  it('tells a name without a position (null) from one at 0, 0, 0', () => {
    expect(recogniseScreenshotName('screenshot.png')).toBeNull();
    expect(recogniseScreenshotName('_1e999, 2, 3_')).toBeNull();
    expect(recogniseScreenshotName('2024-05-01[12-34]_0, 0, 0_0, 0, 0, 1_1 (0).png')).toEqual({ x: 0, y: 0, z: 0, look: 0 });
  });

  it('keeps the position with look null when the rotation is missing or degenerate', () => {
    expect(parseScreenshotName('2024-05-01[12-34]_1, 2, 3_x.png')).toEqual({ x: 1, y: 3, z: 2, look: null });
    expect(parseScreenshotName('2024-05-01[12-34]_1, 2, 3_0, 0, 0, 0_1 (0).png').look).toBeNull();
  });
});

describe('screenshot file names cut short or mistyped', () => {
  it('reads a name cut right after the position (or after the rotation)', () => {
    expect(recogniseScreenshotName('2024-01-05[14-02]_163.0, 1.5, -35.0')).toEqual({ x: 163, y: -35, z: 1.5, look: null });
    expect(recogniseScreenshotName('  2024-01-05[14-02]_163.0, 1.5, -35.0  ')).toEqual({ x: 163, y: -35, z: 1.5, look: null });
    expect(recogniseScreenshotName('2024-01-05[14-02]_163.0, 1.5, -35.0_0, 0, 0, 1')).toEqual({ x: 163, y: -35, z: 1.5, look: 0 });
    // Still three numbers, ended: a cut inside the position is no position.
    expect(recogniseScreenshotName('2024-01-05[14-02]_163.0, 1.5')).toBeNull();
    expect(recogniseScreenshotName('2024-01-05[14-02]_163.0, 1.5, -35.0x')).toBeNull();
  });

  it('tells a name typed with the Russian layout on, and one with decimal commas; not a guess otherwise', () => {
    expect(screenshotNameProblem('2024-01-05х14-02ъ_163ю0б 1ю5б -35ю0_0б 0б 0б 1_0ю00 (0)юзтп')).toBe('russianLayout');
    expect(screenshotNameProblem('2024-01-05[14-02]_163ю0б 1ю5б -35ю0')).toBe('russianLayout');
    expect(screenshotNameProblem('2024-01-05[14-02]_163,0, 1,5, -35,0_0,1, -0,5, 0,1, 0,8_12,34 (0).png')).toBe('decimalComma');
    expect(screenshotNameProblem('2024-01-05[14-02]_163.0, 1.5, -35.0')).toBeNull();
    expect(screenshotNameProblem('holiday photo.png')).toBeNull();
    expect(screenshotNameProblem('скриншот.png')).toBeNull();
    expect(screenshotNameProblem('')).toBeNull();
  });
});

describe('yaw from a quaternion', () => {
  const aroundY = (deg: number): [number, number, number, number] => {
    const h = (deg * Math.PI) / 360;
    return [0, Math.sin(h), 0, Math.cos(h)];
  };
  it('reads the rotation about the vertical axis', () => {
    expect(yawFromQuaternion([0, 0, 0, 1])).toBe(0);
    expect(yawFromQuaternion(aroundY(90))).toBeCloseTo(90, 3);
    expect(yawFromQuaternion(aroundY(-45))).toBeCloseTo(315, 3);
    expect(yawFromQuaternion(aroundY(180))).toBeCloseTo(180, 3);
  });
  it('ignores pitch: looking down keeps the heading', () => {
    const pitch = (20 * Math.PI) / 360;
    const [, y, , w] = aroundY(90);
    // q = yaw(90) * pitch(20 about X)
    const q: [number, number, number, number] = [w * Math.sin(pitch), y * Math.cos(pitch), -y * Math.sin(pitch), w * Math.cos(pitch)];
    expect(yawFromQuaternion(q)).toBeCloseTo(90, 3);
  });
  it('normalises unnormalised quaternions and rejects zero', () => {
    expect(yawFromQuaternion([0, 2, 0, 2])).toBeCloseTo(90, 3);
    expect(yawFromQuaternion([0, 0, 0, 0])).toBeNull();
  });
});

describe('#pos hash', () => {
  it('needs exactly three numbers', () => {
    expect(parsePosHash('#pos=1.5_-2_3')).toEqual({ x: 1.5, y: -2, z: 3, look: null });
    expect(parsePosHash('#pos=1_2')).toBeNull();
    expect(parsePosHash('#pos=1_2_3_4')).toBeNull();
    expect(parsePosHash('#pos=1_two_3')).toBeNull();
    expect(parsePosHash('#pos=1__3')).toBeNull();
    expect(parsePosHash('#other=1_2_3')).toBeNull();
    expect(parsePosHash('')).toBeNull();
  });

  it('tells a #pos= hash that is not three numbers from a valid one and from another anchor', () => {
    expect(invalidPosHash('#pos=1_2')).toBe('1_2');
    expect(invalidPosHash('#pos=1_two_3')).toBe('1_two_3');
    expect(invalidPosHash('#pos=')).toBe('');
    expect(invalidPosHash('#pos=1%20_2_3')).toBe('1 _2_3');
    expect(invalidPosHash('#pos=%E0%A4%A')).toBe('%E0%A4%A');
    expect(invalidPosHash('#pos=1.5_-2_3')).toBeNull();
    expect(invalidPosHash('#other=1_2')).toBeNull();
    expect(invalidPosHash('#main')).toBeNull();
    expect(invalidPosHash('')).toBeNull();
  });
});

describe('look arrow and map position', () => {
  it('offsets the look by 270 minus the map rotation', () => {
    expect(lookArrowAngle(null, MAPS.customs)).toBeNull();
    expect(lookArrowAngle(0, MAPS.customs)).toBe(90); // 0 + 270 - 180
    expect(lookArrowAngle(100, MAPS.factory)).toBe(280); // 100 + 270 - 90
    expect(lookArrowAngle(0, MAPS.dev)).toBe(270);
  });
  it('places the player with the map transform (x, y on the ground plane)', () => {
    const p = { x: 10, y: -20, z: 5, look: null };
    expect(playerToMap(p, MAPS.customs)).toEqual(gameToMap(MAPS.customs.transform, { gameX: 10, gameZ: -20 }));
  });
});

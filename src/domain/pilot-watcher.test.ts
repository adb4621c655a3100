import { describe, expect, it } from 'vitest';
import {
  RETRY_MAX_MS,
  parseRetryAfter,
  positionFromScreenshotFile,
  positionText,
  retryDelayMs,
  secondsText,
  watchersText,
} from './pilot-watcher';

const SHOT = '2025-03-14[19-07]_-153.20, 2.41, 88.67_0.00000, 0.70711, 0.00000, 0.70711_15.64 (0).png';

describe('positionFromScreenshotFile', () => {
  it('reads the position of a game screenshot, by base name or full path', () => {
    const expected = { x: -153.2, y: 88.67, z: 2.41, look: 90 };
    expect(positionFromScreenshotFile(SHOT)).toEqual(expected);
    expect(positionFromScreenshotFile(`C:\\Users\\me\\Documents\\Escape from Tarkov\\Screenshots\\${SHOT}`)).toEqual(expected);
    expect(positionFromScreenshotFile(`/home/me/shots/${SHOT.replace('.png', '.JPG')}`)).toEqual(expected);
  });

  it('ignores files that are not screenshots with a position', () => {
    expect(positionFromScreenshotFile('notes.txt')).toBeNull();
    expect(positionFromScreenshotFile('2025-03-14[19-07]_1 (0).png')).toBeNull();
    expect(positionFromScreenshotFile(`${SHOT}.tmp`)).toBeNull();
    expect(positionFromScreenshotFile(SHOT.replace('.png', '.txt'))).toBeNull();
    // a directory named like a screenshot does not make its other files screenshots
    expect(positionFromScreenshotFile(`/shots/${SHOT}/readme`)).toBeNull();
  });

  it('refuses coordinates the server would refuse', () => {
    expect(positionFromScreenshotFile('2025-03-14[19-07]_1e9, 2, 3_0, 0, 0, 1_1 (0).png')).toBeNull();
  });

  it('keeps a position with no readable rotation, look null', () => {
    expect(positionFromScreenshotFile('2025-03-14[19-07]_1, 2, 3_0, 0, 0, 0_1 (0).png')).toEqual({ x: 1, y: 3, z: 2, look: null });
  });
});

describe('retryDelayMs', () => {
  it('doubles from 1 s and stops growing at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => retryDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(retryDelayMs(0)).toBe(1000);
    expect(retryDelayMs(3, null, 10, 50)).toBe(40);
    expect(retryDelayMs(4, null, 10, 50)).toBe(50);
  });

  it('waits as long as Retry-After says when that is longer, within the cap', () => {
    expect(retryDelayMs(1, 5000)).toBe(5000);
    expect(retryDelayMs(4, 5000)).toBe(8000);
    expect(retryDelayMs(1, 3_600_000)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(2, 0)).toBe(2000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-14T19:07:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 14 Mar 2025 19:07:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 14 Mar 2025 19:06:00 GMT', now)).toBe(0);
  });

  it('is null when absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
    expect(parseRetryAfter('5.5', now)).toBeNull();
  });
});

describe('texts', () => {
  it('say positions, waits and watchers briefly', () => {
    expect(positionText({ x: -153.2, y: 88.67, z: 2.41, look: 90 })).toBe('position -153.2, 88.7 (height 2.4)');
    expect(positionText({ x: 0, y: -0.04, z: 10, look: null })).toBe('position 0, 0 (height 10)');
    expect(secondsText(4000)).toBe('4 s');
    expect(secondsText(120)).toBe('1 s');
    expect(watchersText(0)).toBe('no page follows the code');
    expect(watchersText(1)).toBe('1 page follows the code');
    expect(watchersText(3)).toBe('3 pages follow the code');
  });
});

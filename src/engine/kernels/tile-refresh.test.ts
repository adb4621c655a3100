import { describe, expect, it } from 'vitest';
import { nextRefresh, refreshDelayMs, REFRESH_FIRST_MS, REFRESH_JITTER, REFRESH_MAX_MS, REFRESH_MAX_RETRY_AFTER_MS, versionGone } from './tile-refresh';

const mid = () => 0.5;

describe('refreshDelayMs (asking again for a stand-in tile)', () => {
  it('starts at a few seconds and doubles up to a cap', () => {
    const waits = Array.from({ length: 9 }, (_, attempt) => refreshDelayMs(attempt, 0, mid));
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
    expect(waits[0]).toBe(REFRESH_FIRST_MS);
    expect(refreshDelayMs(1_000, 0, mid)).toBe(REFRESH_MAX_MS);
  });

  it('spreads each wait by the jitter, never past the cap', () => {
    expect(refreshDelayMs(0, 0, () => 0)).toBe(REFRESH_FIRST_MS * (1 - REFRESH_JITTER));
    expect(refreshDelayMs(0, 0, () => 0.999999)).toBeCloseTo(REFRESH_FIRST_MS * (1 + REFRESH_JITTER), -1);
    for (let i = 0; i < 50; i++) {
      const wait = refreshDelayMs(10, 0);
      expect(wait).toBeGreaterThanOrEqual(REFRESH_MAX_MS * (1 - REFRESH_JITTER));
      expect(wait).toBeLessThanOrEqual(REFRESH_MAX_MS);
    }
  });

  it('never asks sooner than Retry-After, which is heeded up to a bound', () => {
    expect(refreshDelayMs(0, 30_000, mid)).toBe(30_000);
    expect(refreshDelayMs(4, 1_000, mid)).toBe(32_000);
    expect(refreshDelayMs(0, 86_400_000, mid)).toBe(REFRESH_MAX_RETRY_AFTER_MS);
    expect(refreshDelayMs(0, -5, mid)).toBe(REFRESH_FIRST_MS);
  });
});

describe('nextRefresh', () => {
  it('counts the answers that were not the real tile and schedules from now', () => {
    const first = nextRefresh(undefined, 1_000, 0, mid);
    expect(first).toEqual({ attempt: 0, dueAt: 3_000 });
    const second = nextRefresh(first, 3_500, 0, mid);
    expect(second).toEqual({ attempt: 1, dueAt: 7_500 });
    expect(nextRefresh(second, 8_000, 20_000, mid)).toEqual({ attempt: 2, dueAt: 28_000 });
  });
});

describe('versionGone (an answer that ends every request of its tile version)', () => {
  it('is a 404 (what the server answers for a version that is not current) or a 410', () => {
    expect(versionGone(404)).toBe(true);
    expect(versionGone(410)).toBe(true);
  });

  it('is not an answer that the tile may still come (a busy or broken server, a refused render) or no answer', () => {
    for (const status of [200, 400, 403, 429, 500, 502, 503, undefined]) expect(versionGone(status)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { checkTileResponse, markStandIn, retryAfterMs, standInFromHeaders, standInOf, tileErrorStatus, TileHttpError } from './tile-response';

describe('tile answers', () => {
  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs('30')).toBe(30_000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:45 GMT', now)).toBe(45_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('knows a stand-in by X-Tile-Fallback, with its Retry-After', () => {
    expect(standInFromHeaders(new Headers({ 'x-tile-fallback': '3/1/2', 'retry-after': '12' }))).toEqual({ from: '3/1/2', retryAfterMs: 12_000 });
    expect(standInFromHeaders(new Headers({ 'x-tile-fallback': '0/0/0' }))).toEqual({ from: '0/0/0' });
    expect(standInFromHeaders(new Headers({ 'cache-control': 'public, max-age=31536000, immutable' }))).toBeUndefined();
  });

  it('marks a decoded image as a stand-in in this realm', () => {
    const stand = markStandIn({ w: 1 }, { from: '1/0/0' });
    const real = markStandIn({ w: 2 }, undefined);
    expect(standInOf(stand)).toEqual({ from: '1/0/0' });
    expect(standInOf(real)).toBeUndefined();
  });

  it('turns an error status into a TileHttpError with its status and Retry-After', () => {
    expect(() => checkTileResponse('/t.webp', new Response('x'))).not.toThrow();
    let error: unknown;
    try {
      checkTileResponse('/t.webp', new Response('{}', { status: 429, headers: { 'retry-after': '7' } }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TileHttpError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7_000, message: 'tile /t.webp: HTTP 429' });
    expect(tileErrorStatus(error)).toBe(429);
    expect(tileErrorStatus(new Error('network'))).toBeUndefined();
  });
});

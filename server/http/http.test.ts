import { describe, expect, it } from 'vitest';
import { etagFor, matchesIfNoneMatch, negotiateEncoding } from './json-cache';
import { distCacheControl, wantsSpaFallback } from './static-site';

describe('negotiateEncoding', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(negotiateEncoding(undefined)).toBe('identity');
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('deflate')).toBe('identity');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBe('identity');
  });
});

describe('ETags', () => {
  it('differ per encoding and all match the same content hash', () => {
    expect(etagFor('abc', 'identity')).toBe('"abc"');
    expect(etagFor('abc', 'gzip')).toBe('"abc-gz"');
    expect(etagFor('abc', 'br')).toBe('"abc-br"');
    for (const header of ['"abc"', '"abc-gz"', 'W/"abc-br"', '"x", "abc"', '*']) expect(matchesIfNoneMatch(header, 'abc'), header).toBe(true);
    for (const header of [undefined, '', '"abcd"', '"ab"', 'abc']) expect(matchesIfNoneMatch(header, 'abc'), String(header)).toBe(false);
  });
});

// JsonCache: server/http/json-cache.test.ts.

describe('static site rules', () => {
  it('falls back to index.html only for extension-less GET/HEAD page routes', () => {
    expect(wantsSpaFallback('GET', '/')).toBe(true);
    expect(wantsSpaFallback('GET', '/map/customs?quest=a.b')).toBe(true);
    expect(wantsSpaFallback('HEAD', '/pilot')).toBe(true);
    expect(wantsSpaFallback('POST', '/map/customs')).toBe(false);
    expect(wantsSpaFallback('GET', '/favicon.ico')).toBe(false);
    for (const p of ['/api', '/api/be/x', '/tiles/customs', '/icons/safe', '/uploads/sample/x']) expect(wantsSpaFallback('GET', p), p).toBe(false);
    expect(wantsSpaFallback('GET', '/apiary')).toBe(true);
  });

  it('caches hashed assets forever and index.html never', () => {
    expect(distCacheControl('index.html')).toBe('no-cache');
    expect(distCacheControl('assets/index-Ab12.js')).toBe('public, max-age=31536000, immutable');
    expect(distCacheControl('favicon.svg')).toBe('public, max-age=3600');
  });
});

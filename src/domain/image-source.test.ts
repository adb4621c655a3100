import { describe, expect, it } from 'vitest';
import { cdnImageOrigins, externalImageOrigin, imageSourceProblem } from './image-source';

const SITE = 'https://raidmap.example';
const CDN = 'https://cdn.example.com';

describe('image sources', () => {
  it('takes paths on this site, and http(s) URLs on this site or an allowed origin', () => {
    for (const url of ['/uploads/markers/a.webp', '/uploads/sample/safe-1.webp', 'img/b.png', `${SITE}/uploads/a.webp`, 'HTTPS://RAIDMAP.EXAMPLE/x.png']) {
      expect(imageSourceProblem(url, SITE), url).toBeUndefined();
    }
    expect(imageSourceProblem(`${CDN}/raidmap/a.webp`, SITE, [CDN])).toBeUndefined();
  });

  it('refuses images on any other origin, protocol-relative ones included, naming the origin and what is allowed', () => {
    expect(imageSourceProblem('https://evil.example/a.png', SITE)).toBe(
      'an image must be uploaded to this site (https://evil.example is not allowed: the pages show images from this site only)',
    );
    expect(imageSourceProblem('//evil.example/a.png', SITE)).toMatch(/^an image must be uploaded to this site \(https:\/\/evil\.example is not allowed/);
    expect(imageSourceProblem('http://raidmap.example/a.png', SITE)).toMatch(/http:\/\/raidmap\.example is not allowed/);
    expect(imageSourceProblem(`${CDN}/a.webp`, SITE)).toMatch(/from this site only\)$/);
    expect(imageSourceProblem('https://evil.example/a.png', SITE, [CDN])).toMatch(/from this site or https:\/\/cdn\.example\.com only\)$/);
  });

  it('tells paths from external URLs', () => {
    expect(externalImageOrigin('/uploads/a.webp', SITE)).toBeNull();
    expect(externalImageOrigin('https://x.example:8443/a', SITE)).toBe('https://x.example:8443');
    expect(externalImageOrigin('//x.example/a', SITE)).toBe('https://x.example');
  });

  it('reads the CDN origin of a build’s CDN base, none for a path or nothing', () => {
    expect(cdnImageOrigins('https://cdn.example.com/raidmap')).toEqual(['https://cdn.example.com']);
    expect(cdnImageOrigins(' http://cdn.example.com:8080 ')).toEqual(['http://cdn.example.com:8080']);
    for (const base of [undefined, '', '/static', 'ftp://x.example']) expect(cdnImageOrigins(base), String(base)).toEqual([]);
  });
});

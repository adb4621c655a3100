/**
 * Paths as the router sees them (url-path.ts): a percent-encoded API path is guarded and
 * answered exactly as the plain one (CSRF, JSON 404s); an over-long path answers 414; a folder
 * of the static roots answers 404, not 403.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SignedInRole } from '../testing/accounts';
import { builtSiteOptions } from '../testing/built-site';
import { testBackends } from '../testing/databases';
import { testMarker } from '../testing/markers';
import { useRoleApp } from '../testing/role-app';
import { wantsSpaFallback } from './static-site';
import { MAX_PATH_LENGTH, routedPath } from './url-path';

describe('routedPath', () => {
  it('decodes the path as the router does, leaves reserved characters encoded, and drops the query', () => {
    expect(routedPath('/%61pi/be/auth/logout')).toBe('/api/be/auth/logout');
    expect(routedPath('/%61pi/be/x?y=%61')).toBe('/api/be/x');
    expect(routedPath('/a%2Fb%3F')).toBe('/a%2Fb%3F');
    expect(routedPath('/map/%D0%B0')).toBe('/map/а');
    // A malformed escape (the router's 400) stays as sent.
    expect(routedPath('/%E0%A4%A')).toBe('/%E0%A4%A');
    expect(routedPath('/plain')).toBe('/plain');
  });

  it('makes the SPA fallback refuse encoded API and file prefixes', () => {
    for (const url of ['/%61pi/be/nothing', '/%74iles/customs/x', '/%75ploads/a', '/%69cons/x']) expect(wantsSpaFallback('GET', url), url).toBe(false);
    expect(wantsSpaFallback('GET', '/%6Dap/customs')).toBe(true);
  });
});

const EVIL = 'http://evil.example';
const ROLES: Array<'anonymous' | SignedInRole> = ['anonymous', 'visitor', 'pro', 'admin'];

describe.each(testBackends())('encoded, over-long and folder paths on $name', (backend) => {
  const server = useRoleApp(
    backend,
    (root) => {
      const site = builtSiteOptions(root);
      fs.mkdirSync(path.join(site.uploadsDir, 'sample'), { recursive: true });
      fs.writeFileSync(path.join(site.uploadsDir, 'sample', 'a.webp'), 'webp');
      fs.writeFileSync(path.join(site.uploadsDir, '.hidden'), 'secret');
      return { ...site, tiles: false };
    },
    { seed: (repos) => repos.markers.insertMany([testMarker('pc2'), testMarker('pc3')]) },
  );

  const call = (method: InjectOptions['method'], url: string, cookie: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method, url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const stored = async (uid: string) => (await server.repos.markers.get(uid)) !== undefined;

  it('refuses a foreign Origin on an encoded API path for every role, as on the plain one; nothing changes', async () => {
    for (const role of ROLES) {
      const cookie = server.cookies[role];
      for (const url of ['/%61pi/be/admin/marker/pc2', '/api/be/admin/marker/pc2', '/api/be/%61dmin/marker/pc2']) {
        const res = await call('DELETE', url, cookie, { origin: EVIL });
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json().message, `${role} ${url}`).toMatch(/cross-origin request refused/);
      }
      const logout = await call('POST', '/%61pi/be/auth/logout', cookie, { origin: EVIL });
      expect(logout.statusCode, role).toBe(403);
      // Anything but JSON is refused on an encoded path too.
      const form = await call('POST', '/%61pi/be/admin/marker/add', cookie, { 'content-type': 'text/plain' });
      expect(form.statusCode, role).toBe(415);
    }
    expect(await stored('pc2')).toBe(true);
    // The sessions survived the foreign logouts.
    for (const role of ['visitor', 'pro', 'admin'] as const) expect((await call('GET', '/%61pi/be/user', server.cookies[role])).statusCode, role).toBe(200);
    expect((await call('GET', '/%61pi/be/user', '')).statusCode).toBe(401);
  });

  it('answers an encoded API path from its own site as the plain one: 401, 403, 403, then the admin deletes', async () => {
    const expected: Record<(typeof ROLES)[number], number> = { anonymous: 401, visitor: 403, pro: 403, admin: 200 };
    for (const role of ROLES) {
      const encoded = await call('DELETE', '/%61pi/be/admin/marker/pc3', server.cookies[role], { origin: 'http://localhost', host: 'localhost' });
      expect(encoded.statusCode, role).toBe(expected[role]);
    }
    expect(await stored('pc3')).toBe(false);
  });

  it('answers a JSON 404, not the page, for a missing encoded API or file path', async () => {
    for (const url of ['/%61pi/be/nothing', '/%74iles/customs/x', '/api/be/nothing', '/%75ploads/missing']) {
      const res = await call('GET', url, server.cookies.admin);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json().error, url).toBe('Not Found');
    }
    const health = await call('GET', '/%61pi/be/health', '');
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers 414 with a JSON message for a path over the bound, for every role and method, API or not', async () => {
    const long = (prefix: string) => prefix + 'a'.repeat(MAX_PATH_LENGTH + 1 - prefix.length);
    for (const role of ROLES) {
      for (const [method, url] of [['GET', long('/')], ['GET', long('/api/be/')], ['GET', long('/uploads/')], ['DELETE', long('/api/be/admin/marker/')], ['GET', `${long('/')}${'b'.repeat(3000)}?q=1`]] as const) {
        const res = await call(method, url, server.cookies[role]);
        expect(res.statusCode, `${role} ${method} ${url.length}`).toBe(414);
        expect(res.json(), url.slice(0, 30)).toEqual({ error: 'URI Too Long', message: expect.stringMatching(new RegExp(`at most ${MAX_PATH_LENGTH}`)) });
      }
    }
    // The router's own 414, for one parameter over its bound, says so without quoting it.
    const param = await call('DELETE', `/api/be/admin/marker/${'u'.repeat(201)}`, server.cookies.admin);
    expect(param.statusCode).toBe(414);
    expect(param.json()).toEqual({ error: 'URI Too Long', message: 'a part of the path is longer than 200 characters' });
    // At the bound: a page like any other; a long query alone is not a long path.
    const atBound = await call('GET', '/' + 'a'.repeat(MAX_PATH_LENGTH - 1), '');
    expect(atBound.statusCode).toBe(200);
    expect((await call('GET', `/api/be/health?x=${'y'.repeat(5000)}`, '')).statusCode).toBe(200);
  });

  it('answers 404 for a folder, a dotfile or a too-long file name under /uploads/, and serves its files', async () => {
    for (const url of ['/uploads/', '/uploads/sample/', '/uploads/sample', '/uploads/.hidden', `/uploads/${'a'.repeat(300)}.png`]) {
      const res = await call('GET', url, server.cookies.admin);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toBe('Not Found');
    }
    const file = await call('GET', '/uploads/sample/a.webp', '');
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('webp');
  });
});

/**
 * Marker images on other sites (src/domain/image-source.ts): the pages' CSP shows images from
 * this site and the CDN origin only, so a new image elsewhere is refused on add and update with
 * a 400 naming it; one the stored marker already has stays (refused on write, never on read).
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { builtSiteOptions } from '../testing/built-site';
import { testBackends } from '../testing/databases';
import { testMarker } from '../testing/markers';
import { useRoleApp } from '../testing/role-app';

const HOST = 'raidmap.example';
const CDN = 'https://cdn.example.com';
const img = (url: string) => ({ img: url, name: '', desc: '' });

describe.each(testBackends())('marker image sources on $name', (backend) => {
  const server = useRoleApp(backend, (root) => ({ ...builtSiteOptions(root), tiles: false }), {
    seed: (repos) => repos.markers.insertMany([testMarker('old', { imgs: [img('https://old.example/a.png')] })]),
  });
  const withCdn = useRoleApp(backend, (root) => ({ ...builtSiteOptions(root), tiles: false, security: { imgOrigins: [CDN] } }));

  const post = (app: typeof server, url: string, body: unknown, cookie = app.cookies.admin) =>
    app.app.inject({ method: 'POST', url, headers: { host: HOST, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: JSON.stringify(body) });
  const add = (body: unknown, cookie?: string, app = server) => post(app, '/api/be/admin/marker/add', body, cookie);
  const update = (body: unknown, cookie?: string, app = server) => post(app, '/api/be/admin/marker/update', body, cookie);
  function expectRefused(res: LightMyRequestResponse, index: number, origin: string) {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^imgs\\[${index}\\]\\.img: an image must be uploaded to this site \\(${origin.replace(/\./g, '\\.')} is not allowed`));
  }

  it('checks the role first: 401, 403, 403', async () => {
    const body = testMarker('perm', { imgs: [img('https://evil.example/a.png')] });
    expect((await add(body, '')).statusCode).toBe(401);
    expect((await add(body, server.cookies.visitor)).statusCode).toBe(403);
    expect((await add(body, server.cookies.pro)).statusCode).toBe(403);
    expect(await server.repos.markers.get('perm')).toBeUndefined();
  });

  it('refuses a new image on another site on add, nothing stored; takes this site’s paths and URLs', async () => {
    expectRefused(await add(testMarker('ext', { imgs: [img('/uploads/sample/a.webp'), img('https://evil.example/a.png')] })), 1, 'https://evil.example');
    expectRefused(await add(testMarker('ext', { imgs: [img(`${CDN}/a.webp`)] })), 0, CDN);
    expect(await server.repos.markers.get('ext')).toBeUndefined();
    const own = await add(testMarker('own', { imgs: [img('/uploads/sample/a.webp'), img(`http://${HOST}/uploads/markers/b.webp`)] }));
    expect(own.statusCode, own.body).toBe(201);
  });

  it('takes images on the configured CDN origin', async () => {
    const res = await add(testMarker('cdn', { imgs: [img(`${CDN}/raidmap/a.webp`)] }), undefined, withCdn);
    expect(res.statusCode, res.body).toBe(201);
    const message = (await add(testMarker('cdn2', { imgs: [img('https://evil.example/a.png')] }), undefined, withCdn)).json().message;
    expect(message).toMatch(/from this site or https:\/\/cdn\.example\.com only\)$/);
  });

  it('keeps an image the stored marker already has on update, and refuses a new or changed one', async () => {
    const stored = (await server.repos.markers.get('old'))!;
    const renamed = await update({ ...stored, name: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const current = (await server.repos.markers.get('old'))!;
    expectRefused(await update({ ...current, imgs: [...current.imgs, img('https://evil.example/b.png')] }), 1, 'https://evil.example');
    expectRefused(await update({ ...current, imgs: [img('https://old.example/other.png')] }), 0, 'https://old.example');
    expect((await server.repos.markers.get('old'))?.imgs).toEqual([img('https://old.example/a.png')]);
    // A marker stored with one still reads.
    const list = await server.app.inject({ method: 'GET', url: '/api/be/markers/one?uid=old' });
    expect(list.statusCode).toBe(200);
  });
});

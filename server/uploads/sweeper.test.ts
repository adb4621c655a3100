/**
 * The upload sweeper (issue 9, defect 7) on SQLite and PostgreSQL, through the real admin
 * routes: a deleted marker's images go once the undo window has passed, images in use never.
 * The sweeper's clock is injected: "a day later" is `now: () => Date.now() + DAY + …`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Marker } from '../../src/domain/marker';
import { buildServer } from '../app';
import { SESSION_COOKIE } from '../auth';
import { hashPassword } from '../auth/password';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { tempDir, testBackends } from '../testing/databases';
import { markerUidOfUpload, startUploadSweeper, sweepUploads, uploadPathOf } from './sweeper';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.from([13, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0])]);
const WINDOW = 24 * 60 * 60 * 1000;

describe('upload names', () => {
  it('reads the upload path of an image URL and the marker uid of a file name', () => {
    expect(uploadPathOf('/uploads/markers/m-1-0.webp?v=123')).toBe('markers/m-1-0.webp');
    expect(uploadPathOf('https://cdn.example.com/uploads/markers/a.webp')).toBeUndefined();
    expect(uploadPathOf('/img/a.webp')).toBeUndefined();
    expect(markerUidOfUpload('m-1-0.webp')).toBe('m-1');
    expect(markerUidOfUpload('m-1-0-0123456789abcdef.webp')).toBe('m-1');
    expect(markerUidOfUpload('m-1-12-fedcba9876543210.png')).toBe('m-1');
    expect(markerUidOfUpload('abc-12.png')).toBe('abc');
    expect(markerUidOfUpload('abc-3.jpg.4242.6f1c.tmp')).toBe('abc');
    expect(markerUidOfUpload('notes.txt')).toBeUndefined();
  });
});

describe.each(testBackends())('upload sweeper on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let repos: Repositories;
  let root: string;
  let uploadsDir: string;
  let admin = '';

  const call = (method: InjectOptions['method'], url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), cookie: admin },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const marker = (uid: string, over: Partial<Marker> = {}): Marker => ({
    uid, map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 10, y: 20 },
    name: uid, desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, questUid: null, itemsUid: [], ...over,
  });
  const add = async (uid: string, over: Partial<Marker> = {}) => {
    const res = await call('POST', '/api/be/admin/marker/add', marker(uid, over));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().marker as Marker;
  };
  const upload = async (uid: string, index: number, bytes = PNG) => {
    // Names the image it replaces (the stored one at that index; null: a new one), as the editor does.
    const replaces = (await repos.markers.get(uid))?.imgs[index]?.img ?? null;
    const res = await call('POST', '/api/be/admin/maps/marker/upload/base64', { uid: `${uid}-${index}`, map: 'factory', base64: bytes.toString('base64'), replaces });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { marker: Marker; fileUrl: string };
  };
  const fileOf = (url: string) => path.join(uploadsDir, uploadPathOf(url)!);
  /** The file name of an upload's URL (each upload has one of its own: `<uid>-<index>-<id>.<ext>`). */
  const nameOf = (url: string) => path.basename(uploadPathOf(url)!);
  const sweep = (laterMs: number) => sweepUploads({ db, uploadsDir, windowMs: WINDOW, now: () => Date.now() + laterMs });

  beforeAll(async () => {
    root = tempDir();
    uploadsDir = path.join(root, 'uploads');
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
    app = buildServer({ db, repos, uploadsDir, tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets') });
    await app.ready();
    await repos.users.create({ name: 'admin1', passwordHash: await hashPassword('password1'), admin: true });
    const res = await app.inject({ method: 'POST', url: '/api/be/auth/login', headers: { 'content-type': 'application/json' }, payload: { name: 'admin1', password: 'password1' } });
    const raw = res.headers['set-cookie'];
    admin = (Array.isArray(raw) ? raw : [raw ?? '']).find((c) => c.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0];
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('removes a deleted marker\'s images after the undo window, not before; the file is then no longer served', async () => {
    await add('gone');
    const { fileUrl } = await upload('gone', 0);
    expect(fs.existsSync(fileOf(fileUrl))).toBe(true);
    expect((await call('DELETE', '/api/be/admin/marker/gone')).statusCode).toBe(200);
    // Within the window (the editor can still undo the delete): kept and served.
    expect((await sweep(0)).removed).toEqual([]);
    expect((await sweep(WINDOW - 60_000)).removed).toEqual([]);
    expect((await app.inject({ url: fileUrl })).statusCode).toBe(200);
    // A day later it is gone for good.
    const result = await sweep(WINDOW + 60_000);
    expect(result.removed).toContain(nameOf(fileUrl));
    expect(fs.existsSync(fileOf(fileUrl))).toBe(false);
    expect((await app.inject({ url: fileUrl })).statusCode).toBe(404);
  });

  it('never removes an image a marker uses, however old', async () => {
    await add('kept');
    const { fileUrl } = await upload('kept', 0);
    const old = new Date(Date.now() - 30 * WINDOW);
    fs.utimesSync(fileOf(fileUrl), old, old);
    const result = await sweep(365 * WINDOW);
    expect(result.removed).not.toContain(nameOf(fileUrl));
    expect(result.referenced).toBeGreaterThan(0);
    expect(fs.existsSync(fileOf(fileUrl))).toBe(true);
  });

  it('keeps the images of a delete undone within the window (the same uid added back)', async () => {
    await add('undo');
    const { marker, fileUrl } = await upload('undo', 0);
    expect(marker.imgs[0].img).toBe(fileUrl);
    expect((await call('DELETE', '/api/be/admin/marker/undo')).statusCode).toBe(200);
    expect((await sweep(WINDOW / 2)).removed).not.toContain(nameOf(fileUrl));
    // The editor's undo: add the same uid with the same fields.
    const { version: _v, ...fields } = marker;
    expect((await call('POST', '/api/be/admin/marker/add', fields)).statusCode).toBe(201);
    expect((await sweep(10 * WINDOW)).removed).not.toContain(nameOf(fileUrl));
    expect(fs.existsSync(fileOf(fileUrl))).toBe(true);
  });

  it('removes an image taken off a marker, and the old file of an image uploaded again as another type', async () => {
    await add('edit');
    const png = await upload('edit', 0);
    const second = await upload('edit', 1);
    const webp = await upload('edit', 0, WEBP);
    expect(uploadPathOf(webp.fileUrl)).toMatch(/^markers\/edit-0-[0-9a-f]{16}\.webp$/);
    // Image 1 removed by an edit.
    const res = await call('POST', '/api/be/admin/marker/update', { ...webp.marker, imgs: [webp.marker.imgs[0]] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await sweep(0)).removed.filter((n) => n.startsWith('edit-'))).toEqual([]);
    const result = await sweep(WINDOW + 60_000);
    expect(result.removed.filter((n) => n.startsWith('edit-')).sort()).toEqual([nameOf(png.fileUrl), nameOf(second.fileUrl)].sort());
    expect(fs.existsSync(fileOf(png.fileUrl))).toBe(false);
    expect(fs.existsSync(fileOf(second.fileUrl))).toBe(false);
    expect(fs.existsSync(fileOf(webp.fileUrl))).toBe(true);
  });

  it('removes a stray file older than the window, keeps a young one, and never touches other folders', async () => {
    const markers = path.join(uploadsDir, 'markers');
    const sample = path.join(uploadsDir, 'sample');
    fs.mkdirSync(sample, { recursive: true });
    fs.writeFileSync(path.join(markers, 'nobody-0.png.1.x.tmp'), PNG);
    fs.writeFileSync(path.join(markers, 'young-0.png'), PNG);
    fs.writeFileSync(path.join(sample, 'old.webp'), WEBP);
    const old = new Date(Date.now() - 2 * WINDOW);
    fs.utimesSync(path.join(markers, 'nobody-0.png.1.x.tmp'), old, old);
    fs.utimesSync(path.join(sample, 'old.webp'), old, old);
    const result = await sweep(0);
    expect(result.removed).toEqual(['nobody-0.png.1.x.tmp']);
    expect(fs.existsSync(path.join(markers, 'young-0.png'))).toBe(true);
    expect(fs.existsSync(path.join(sample, 'old.webp'))).toBe(true);
  });

  it('two sweeps at once (two server processes) remove each file once, without errors', async () => {
    await add('twice');
    const { fileUrl } = await upload('twice', 0);
    expect((await call('DELETE', '/api/be/admin/marker/twice')).statusCode).toBe(200);
    const [a, b] = await Promise.all([sweep(WINDOW + 60_000), sweep(WINDOW + 60_000)]);
    expect([...a.removed, ...b.removed].filter((n) => n === nameOf(fileUrl))).toHaveLength(1);
    expect(fs.existsSync(fileOf(fileUrl))).toBe(false);
  });

  it('runs periodically in the background until stopped', async () => {
    await add('bg');
    const { fileUrl } = await upload('bg', 0);
    expect((await call('DELETE', '/api/be/admin/marker/bg')).statusCode).toBe(200);
    const onSweep = vi.fn();
    const onError = vi.fn();
    const stop = startUploadSweeper({ db, uploadsDir, windowMs: WINDOW, now: () => Date.now() + 2 * WINDOW, firstDelayMs: 5, intervalMs: 20, onSweep, onError });
    try {
      await vi.waitFor(() => expect(onSweep).toHaveBeenCalledWith(expect.objectContaining({ removed: expect.arrayContaining([nameOf(fileUrl)]) })), { timeout: 5000 });
    } finally {
      await stop();
    }
    expect(onError).not.toHaveBeenCalled();
    expect(fs.existsSync(fileOf(fileUrl))).toBe(false);
  });
});

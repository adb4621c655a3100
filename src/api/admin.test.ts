// @vitest-environment jsdom
// jsdom for XMLHttpRequest (upload progress) and FileReader; msw answers both fetch and XHR.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Marker } from '../domain/marker';
import { addMarker, ConflictError, deleteMarker, fetchMarkerHistory, readAsDataUrl, updateMarker, uploadMarkerImage, type HistoryEntry } from './admin';
import { ApiError, setApiBase } from './client';

const BASE = 'http://api.test';
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a4e40000000049454e44ae426082', 'hex'));

const stored: Marker = {
  uid: 'm-1',
  map: 'customs',
  category: 'Loot',
  subCategory: 'Safe',
  level: 1,
  geometry: { x: 1, y: 2 },
  name: 'Safe',
  desc: '',
  imgs: [],
  name_l10n: {},
  desc_l10n: {},
  questUid: null,
  itemsUid: [],
  version: 3,
};

const seen: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];

async function record(request: Request): Promise<unknown> {
  const text = await request.text();
  const body = text ? JSON.parse(text) : undefined;
  seen.push({ method: request.method, url: request.url, body, headers: Object.fromEntries(request.headers.entries()) });
  return body;
}

const server = setupServer(
  http.post(`${BASE}/api/be/admin/marker/add`, async ({ request }) => {
    const body = (await record(request)) as Marker;
    if (body.uid === 'taken') return HttpResponse.json({ error: 'conflict', message: 'a marker with uid "taken" exists', marker: { ...stored, uid: 'taken' } }, { status: 409 });
    return HttpResponse.json({ marker: { ...body, uid: body.uid ?? 'server-uid', version: 1 } }, { status: 201 });
  }),
  http.post(`${BASE}/api/be/admin/marker/update`, async ({ request }) => {
    const body = (await record(request)) as Marker;
    if (body.uid === 'gone') return HttpResponse.json({ error: 'not_found', message: 'no marker with uid "gone"' }, { status: 404 });
    if (body.version !== undefined && body.version !== stored.version) return HttpResponse.json({ error: 'conflict', message: 'changed meanwhile', marker: stored }, { status: 409 });
    if (body.uid === 'broken') return HttpResponse.json({ marker: { uid: 'broken' } });
    return HttpResponse.json({ marker: { ...body, version: stored.version! + 1 } });
  }),
  http.delete(`${BASE}/api/be/admin/marker/:uid`, async ({ request, params }) => {
    await record(request);
    const version = new URL(request.url).searchParams.get('version');
    if (version !== null && Number(version) !== stored.version) return HttpResponse.json({ error: 'conflict', message: 'changed meanwhile', marker: { bad: 'shape' } }, { status: 409 });
    return HttpResponse.json({ ok: true, uid: params.uid, version: stored.version! + 1 });
  }),
  http.get(`${BASE}/api/be/admin/marker/:uid/history`, ({ params }) => {
    const entry: HistoryEntry = { id: 7, uid: String(params.uid), map: 'customs', action: 'update', user: 'admin1', at: '2026-01-01T00:00:00.000Z', version: 3, before: { ...stored, version: 2 }, after: stored };
    return HttpResponse.json({ history: [entry] });
  }),
  http.post(`${BASE}/api/be/admin/maps/marker/upload/base64`, async ({ request }) => {
    const body = (await record(request)) as { uid: string; map: string; base64: string; replaces?: string | null };
    if (body.replaces === '/uploads/markers/removed.png') {
      return HttpResponse.json({ error: 'conflict', message: 'marker "m-1" was changed meanwhile: the upload was meant for image 0', marker: stored }, { status: 409 });
    }
    if (body.map !== 'customs') return HttpResponse.json({ error: 'Bad Request', message: `marker is on map "customs", not "${body.map}"` }, { status: 400 });
    const index = Number(body.uid.slice(body.uid.lastIndexOf('-') + 1));
    const fileUrl = `/uploads/markers/m-1-${index}.png?v=1`;
    return HttpResponse.json({ marker: { ...stored, imgs: [{ img: fileUrl, name: '', desc: '' }], version: 4 }, filePath: 'uploads/markers/m-1-0.png', fileUrl });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(BASE);
});
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => {
  server.close();
  setApiBase('');
});

async function caught<T extends Error>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (error) {
    return error as T;
  }
  throw new Error('expected a rejection');
}

describe('admin marker calls', () => {
  it('adds a marker as JSON and answers the stored one; a client uid is sent along', async () => {
    const { uid: _uid, version: _version, ...fields } = stored;
    expect(await addMarker(fields)).toMatchObject({ uid: 'server-uid', version: 1, name: 'Safe' });
    expect(await addMarker({ ...fields, uid: 'mine' })).toMatchObject({ uid: 'mine', version: 1 });
    expect(seen[1]).toMatchObject({ method: 'POST', body: { uid: 'mine' }, headers: { 'content-type': 'application/json' } });
  });

  it('turns a 409 into ConflictError with the current marker', async () => {
    const { uid: _uid, ...fields } = stored;
    const taken = await caught<ConflictError>(addMarker({ ...fields, uid: 'taken' }));
    expect(taken).toBeInstanceOf(ConflictError);
    expect(taken).toBeInstanceOf(ApiError);
    expect(taken).toMatchObject({ status: 409, code: 'conflict', message: 'a marker with uid "taken" exists' });
    expect(taken.current).toMatchObject({ uid: 'taken', version: 3 });

    const stale = await caught<ConflictError>(updateMarker({ ...stored, name: 'Mine', version: 2 }));
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale.current).toEqual(stored);
  });

  it('updates with the base version and answers the next version', async () => {
    expect(await updateMarker({ ...stored, name: 'Renamed' })).toMatchObject({ name: 'Renamed', version: 4 });
    expect(seen[0].body).toMatchObject({ uid: 'm-1', version: 3, name: 'Renamed' });
  });

  it('reports a missing marker and a malformed answer as ApiError', async () => {
    const gone = await caught<ApiError>(updateMarker({ ...stored, uid: 'gone' }));
    expect(gone).not.toBeInstanceOf(ConflictError);
    expect(gone).toMatchObject({ status: 404, code: 'not_found' });
    expect(await caught<ApiError>(updateMarker({ ...stored, uid: 'broken' }))).toMatchObject({ code: 'bad_marker' });
  });

  it('deletes with ?version= and answers the deletion version; a conflict without a valid marker has current null', async () => {
    expect(await deleteMarker('m-1', 3)).toEqual({ version: 4 });
    expect(new URL(seen[0].url).search).toBe('?version=3');
    expect(seen[0].method).toBe('DELETE');
    expect(await deleteMarker('m 1')).toEqual({ version: 4 });
    expect(new URL(seen[1].url).pathname).toBe('/api/be/admin/marker/m%201');
    const stale = await caught<ConflictError>(deleteMarker('m-1', 1));
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale.current).toBeNull();
  });

  it('fetches the history', async () => {
    const history = await fetchMarkerHistory('m-1');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: 'update', user: 'admin1', version: 3, after: { version: 3 } });
  });
});

describe('uploadMarkerImage', () => {
  it('reads the file as a data URL, posts it with XMLHttpRequest and reports progress up to 1', async () => {
    const progress: number[] = [];
    const file = new File([PNG], 'shot.png', { type: 'image/png' });
    const result = await uploadMarkerImage({ uid: 'm-1', index: 0, map: 'customs', file, onProgress: (f) => progress.push(f) });
    expect(result.fileUrl).toBe('/uploads/markers/m-1-0.png?v=1');
    expect(result.marker).toMatchObject({ uid: 'm-1', version: 4, imgs: [{ img: result.fileUrl }] });
    expect(seen[0].body).toEqual({ uid: 'm-1-0', map: 'customs', base64: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` });
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('names the image it replaces as given: a URL, null for a new image; left out: none named', async () => {
    const file = new Blob([PNG], { type: 'image/png' });
    await uploadMarkerImage({ uid: 'm-1', index: 0, map: 'customs', file, replaces: '/uploads/markers/a.png' });
    expect(seen[0].body).toMatchObject({ uid: 'm-1-0', replaces: '/uploads/markers/a.png' });
    await uploadMarkerImage({ uid: 'm-1', index: 1, map: 'customs', file, replaces: null });
    expect(seen[1].body).toMatchObject({ uid: 'm-1-1', replaces: null });
    await uploadMarkerImage({ uid: 'm-1', index: 1, map: 'customs', file });
    expect(seen[2].body).not.toHaveProperty('replaces');
  });

  it('turns a 409 (the image it meant is no longer there) into ConflictError with the stored marker', async () => {
    const error = await caught<ConflictError>(uploadMarkerImage({ uid: 'm-1', index: 0, map: 'customs', file: new Blob([PNG], { type: 'image/png' }), replaces: '/uploads/markers/removed.png' }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toMatch(/was changed meanwhile/);
    expect(error.current).toMatchObject({ uid: stored.uid, version: stored.version });
  });

  it('sends bare base64 for a blob without an image type', async () => {
    await uploadMarkerImage({ uid: 'm-1', index: 1, map: 'customs', file: new Blob([PNG]) });
    expect(seen[0].body).toMatchObject({ uid: 'm-1-1', base64: Buffer.from(PNG).toString('base64') });
  });

  it('turns an error answer into ApiError with the server message', async () => {
    const error = await caught<ApiError>(uploadMarkerImage({ uid: 'm-1', index: 0, map: 'woods', file: new Blob([PNG], { type: 'image/png' }) }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'marker is on map "customs", not "woods"' });
  });

  it('refuses a file over 5 MB and a bad index before sending anything', async () => {
    const big = new Blob([new Uint8Array(5 * 1024 * 1024 + 1)], { type: 'image/png' });
    expect(await caught<ApiError>(uploadMarkerImage({ uid: 'm-1', index: 0, map: 'customs', file: big }))).toMatchObject({ status: 413, code: 'too_large' });
    expect(await caught<ApiError>(uploadMarkerImage({ uid: 'm-1', index: -1, map: 'customs', file: new Blob([PNG]) }))).toMatchObject({ code: 'bad_index' });
    expect(seen).toHaveLength(0);
  });

  it('is cancelled by its signal with an AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await caught<Error>(uploadMarkerImage({ uid: 'm-1', index: 0, map: 'customs', file: new Blob([PNG], { type: 'image/png' }), signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    expect(seen).toHaveLength(0);
  });

  it('reads blobs as data URLs', async () => {
    expect(await readAsDataUrl(new Blob(['hi'], { type: 'text/plain' }))).toBe('data:text/plain;base64,aGk=');
  });
});

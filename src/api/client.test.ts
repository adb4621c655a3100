import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, getJson, setApiBase } from './client';
import { fetchMarkerList } from './markers';
import { fetchTileManifest } from './tiles';

const BASE = 'http://api.test';
const manifest = { map: 'customs', version: 'v1', tileSize: 256, minZ: 0, maxZ: 7, prebuiltMaxZ: 3, width: 4400, height: 3200, layers: ['main'], format: 'webp' };

const server = setupServer(
  http.get(`${BASE}/api/be/markers/list`, ({ request }) => {
    const map = new URL(request.url).searchParams.get('map');
    if (map !== 'customs') return HttpResponse.json({ error: 'unknown_map', message: `Unknown map "${map}"` }, { status: 404 });
    return HttpResponse.json({ markers: [{ uid: 'a' }] });
  }),
  http.get(`${BASE}/tiles/customs/manifest.json`, () => HttpResponse.json(manifest)),
  http.get(`${BASE}/tiles/woods/manifest.json`, () => HttpResponse.json({ map: 'woods' })),
  http.get(`${BASE}/api/be/broken`, () => new HttpResponse('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' })),
  http.get(`${BASE}/api/be/offline`, () => HttpResponse.error()),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(`${BASE}/`);
});
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  setApiBase('');
});

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('api client', () => {
  it('fetches the marker list as raw bytes', async () => {
    const buffer = await fetchMarkerList('customs');
    expect(buffer).toBeInstanceOf(ArrayBuffer);
    expect(JSON.parse(new TextDecoder().decode(buffer))).toEqual({ markers: [{ uid: 'a' }] });
  });

  it('carries the server status and {error, message} in ApiError', async () => {
    const error = await caught(fetchMarkerList('woods'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('unknown_map');
    expect(error.message).toBe('Unknown map "woods"');
  });

  it('falls back to the status text when the error body is not JSON', async () => {
    const error = await caught(getJson('/api/be/broken'));
    expect(error.status).toBe(502);
    expect(error.code).toBe('http_502');
    expect(error.message).toBe('Bad Gateway');
  });

  it('turns a network failure into an offline ApiError', async () => {
    const error = await caught(getJson('/api/be/offline'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.offline).toBe(true);
  });

  it('validates the tile manifest', async () => {
    expect(await fetchTileManifest('customs')).toEqual(manifest);
    const error = await caught(fetchTileManifest('woods'));
    expect(error.code).toBe('bad_manifest');
  });
});

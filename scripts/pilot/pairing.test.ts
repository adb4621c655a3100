import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PilotApi } from './api';
import { isLoopbackServer, newPairing, obtainPairing, pairingLines, PairingError } from './pairing';
import { loadPairing, savePairing } from './state';
import { cleanupTempDirs, tempDir } from './test-helpers';

afterEach(() => cleanupTempDirs());

const SERVER = 'http://test';
const future = '2030-01-01T00:00:00.000Z';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function api(answers: (() => Response)[]) {
  const calls: string[] = [];
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push(`${init?.method} ${String(url).slice(SERVER.length)}`);
    const next = answers.shift();
    if (!next) throw new TypeError('fetch failed');
    return next();
  }) as typeof fetch;
  return { api: new PilotApi({ server: SERVER, fetch: fetchImpl }), calls };
}

describe('pairing', () => {
  it('reuses the remembered pairing while the server knows it', async () => {
    const stateFile = path.join(tempDir(), 'pilot.json');
    await savePairing(stateFile, { server: SERVER, code: 'ABCDEFGHJK', token: 't', expiresAt: future });
    const { api: client, calls } = api([() => json(200, { code: 'ABCDEFGHJK', expiresAt: future, watchers: 0 })]);
    const pairing = await obtainPairing({ api: client, stateFile, log: () => {} }, null);
    expect(pairing).toEqual({ code: 'ABCDEFGHJK', token: 't', expiresAt: future });
    expect(calls).toEqual(['GET /api/be/pilot/ABCDEFGHJK']);
  });

  it('pairs anew when the remembered pairing is gone, and remembers the new one', async () => {
    const stateFile = path.join(tempDir(), 'pilot.json');
    await savePairing(stateFile, { server: SERVER, code: 'ABCDEFGHJK', token: 't', expiresAt: future });
    const { api: client, calls } = api([() => json(404, { error: 'gone' }), () => json(201, { code: 'mnpqr-stuvw', token: 't2', expiresAt: future })]);
    const pairing = await obtainPairing({ api: client, stateFile, log: () => {} }, null);
    expect(pairing).toEqual({ code: 'MNPQRSTUVW', token: 't2', expiresAt: future });
    expect(calls).toEqual(['GET /api/be/pilot/ABCDEFGHJK', 'POST /api/be/pilot/pairings']);
    expect(await loadPairing(stateFile)).toEqual({ server: SERVER, code: 'MNPQRSTUVW', token: 't2', expiresAt: future });
  });

  it('ignores a remembered pairing of another server', async () => {
    const stateFile = path.join(tempDir(), 'pilot.json');
    await savePairing(stateFile, { server: 'http://other', code: 'ABCDEFGHJK', token: 't', expiresAt: future });
    const { api: client, calls } = api([() => json(201, { code: 'MNPQRSTUVW', token: 't2', expiresAt: future })]);
    expect((await obtainPairing({ api: client, stateFile, log: () => {} }, null))?.code).toBe('MNPQRSTUVW');
    expect(calls).toEqual(['POST /api/be/pilot/pairings']);
  });

  it('retries pairing while the server is down or rate-limiting, and gives up on a server without the API', async () => {
    const lines: string[] = [];
    const { api: client } = api([
      () => {
        throw new TypeError('fetch failed');
      },
      () => json(429, { error: 'slow down' }, { 'retry-after': '0' }),
      () => json(201, { code: 'ABCDEFGHJK', token: 't', expiresAt: future }),
    ]);
    const pairing = await newPairing({ api: client, stateFile: null, log: (l) => lines.push(l), retry: { baseMs: 5, maxMs: 50 } });
    expect(pairing?.code).toBe('ABCDEFGHJK');
    expect(lines).toEqual(['server unreachable, retrying in 1 s', 'rate-limited, retrying in 1 s']);

    const { api: wrong } = api([() => json(404, { error: 'not found' })]);
    await expect(newPairing({ api: wrong, stateFile: null, log: () => {} })).rejects.toThrow(PairingError);
  });

  it('shows the code, a QR code of the link, and the link', async () => {
    const lines = await pairingLines('https://maps.example.org', 'ABCDEFGHJK', true);
    expect(lines[0]).toBe('pairing code: ABCDE-FGHJK');
    expect(lines[1].split('\n').length).toBeGreaterThan(10);
    expect(lines[2]).toBe('follow it on your phone: https://maps.example.org/map/customs?connection=ABCDEFGHJK');
    expect(lines).toHaveLength(3);
  });

  it('says when the link opens on this computer only, with the addresses a phone could use', async () => {
    for (const server of ['http://localhost:8080', 'http://127.0.0.1:4701', 'http://[::1]:8080', 'http://app.localhost']) {
      expect(isLoopbackServer(server)).toBe(true);
    }
    for (const server of ['http://192.168.1.20:8080', 'https://maps.example.org', 'http://localhost.example.org', 'not a url']) {
      expect(isLoopbackServer(server)).toBe(false);
    }
    const lines = await pairingLines('http://127.0.0.1:4701', 'ABCDEFGHJK', false, ['192.168.1.20', '10.0.0.5']);
    expect(lines.slice(2)).toEqual([
      'note: 127.0.0.1:4701 is this computer only, so a phone cannot open this link.',
      '      For a phone on the same network, start the server with HOST=0.0.0.0 and run the watcher with --server http://192.168.1.20:4701 or --server http://10.0.0.5:4701.',
    ]);
    expect((await pairingLines('http://localhost', 'ABCDEFGHJK', false, []))[2]).toBe('note: localhost is this computer only, so a phone cannot open this link.');
    expect(await pairingLines('http://192.168.1.20:8080', 'ABCDEFGHJK', false, ['192.168.1.20'])).toHaveLength(2);
  });
});

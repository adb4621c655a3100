/**
 * `npm run pilot` end to end: the real scripts/pilot.ts as a child process against a tiny
 * node:http server imitating the pilot API's contract (not the real server's routes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PilotMessage } from '../../src/domain/pilot';
import { cleanupTempDirs, screenshotName, tempDir, waitFor } from './test-helpers';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface FakeServer {
  url: string;
  messages: { code: string; auth: string | undefined; body: PilotMessage }[];
  pairings: number;
  /** Answers a message request with this status instead (then forgets it) when set. */
  nextMessageStatus: number | null;
  /** Codes handed out by POST /pairings, in turn. */
  codes: string[];
  close: () => Promise<void>;
}

async function fakeServer(): Promise<FakeServer> {
  const state: Omit<FakeServer, 'url' | 'close'> = { messages: [], pairings: 0, nextMessageStatus: null, codes: ['ABCDEFGHJK', 'MNPQRSTUVW'] };
  const known = new Set<string>();
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const url = req.url ?? '';
      if (req.method === 'POST' && url === '/api/be/pilot/pairings') {
        const code = state.codes[state.pairings++ % state.codes.length];
        known.add(code);
        return send(201, { code, token: `token-${code}`, expiresAt });
      }
      const match = /^\/api\/be\/pilot\/([A-Z0-9]+)(\/messages)?$/.exec(url);
      if (!match) return send(404, { error: 'not found' });
      const [, code, messages] = match;
      if (!messages && req.method === 'GET') return known.has(code) ? send(200, { code, expiresAt, watchers: 1 }) : send(404, { error: 'gone' });
      if (!messages || req.method !== 'POST') return send(405, { error: 'method' });
      if (!known.has(code)) return send(404, { error: 'gone' });
      if (!req.headers.authorization) return send(401, { error: 'no token' });
      if (req.headers.authorization !== `Bearer token-${code}`) return send(403, { error: 'wrong token' });
      if (state.nextMessageStatus !== null) {
        const status = state.nextMessageStatus;
        state.nextMessageStatus = null;
        if (status === 404) known.delete(code);
        return send(status, { error: 'scripted' });
      }
      const body = JSON.parse(text) as PilotMessage;
      state.messages.push({ code, auth: req.headers.authorization, body });
      return send(200, body.type === 'ping' ? { type: 'pong', watchers: 1 } : { ok: true, watchers: 1 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake = state as FakeServer;
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  // a finished test should not wait on the child's keep-alive connection
  fake.close = ((close) => () => {
    server.closeAllConnections();
    return close();
  })(fake.close);
  return fake;
}

interface Pilot {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startPilot(args: string[], stateFile: string): Pilot {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/pilot.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, RAIDMAP_PILOT_STATE: stateFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  cleanupTempDirs();
});

async function setup() {
  const server = await fakeServer();
  cleanups.push(() => server.close());
  const dir = tempDir();
  const shots = path.join(dir, 'Screenshots');
  fs.mkdirSync(shots);
  return { server, dir, shots, stateFile: path.join(dir, 'state', 'pilot.json') };
}

function track(pilot: Pilot): Pilot {
  cleanups.push(async () => {
    if (pilot.child.exitCode === null) {
      pilot.child.kill('SIGKILL');
      await pilot.exited;
    }
  });
  return pilot;
}

const positions = (server: FakeServer) => server.messages.filter((m) => m.body.type === 'position');

describe('npm run pilot', () => {
  it('pairs, shows the code and link, sends the position of a new screenshot, and stops on SIGTERM', async () => {
    const { server, shots, stateFile } = await setup();
    const pilot = track(startPilot(['--server', server.url, '--screenshots', shots], stateFile));
    await waitFor(() => /watching /.test(pilot.output()), 15_000, `"watching" in:\n${pilot.output()}`);
    expect(pilot.output()).toContain('pairing code: ABCDE-FGHJK');
    expect(pilot.output()).toContain(`${server.url}/map/customs?connection=ABCDEFGHJK`);
    expect(pilot.output()).toContain(`watching ${shots}`);
    expect(JSON.parse(fs.readFileSync(stateFile, 'utf8'))).toMatchObject({ server: server.url, code: 'ABCDEFGHJK', token: 'token-ABCDEFGHJK' });

    fs.writeFileSync(path.join(shots, screenshotName(-153.2, 88.67, 2.41)), 'not a real png');
    await waitFor(() => positions(server).length === 1, 4000, 'the position on the server');
    expect(positions(server)[0]).toEqual({
      code: 'ABCDEFGHJK',
      auth: 'Bearer token-ABCDEFGHJK',
      body: { type: 'position', data: { x: -153.2, y: 88.67, z: 2.41, look: 90 } },
    });
    expect(fs.existsSync(path.join(shots, screenshotName(-153.2, 88.67, 2.41)))).toBe(true); // not deleted unless asked

    pilot.child.kill('SIGTERM');
    expect(await pilot.exited).toBe(0);
  });

  it('reuses a pairing given on the command line, and pairs again (printing the new code) when it is gone', async () => {
    const { server, shots, stateFile } = await setup();
    // the pairing exists on the server (as made by the page)
    await fetch(`${server.url}/api/be/pilot/pairings`, { method: 'POST' });
    const pilot = track(startPilot(['--server', server.url, '--screenshots', shots, '--code', 'abcde-fghjk', '--token', 'token-ABCDEFGHJK', '--delete'], stateFile));
    await waitFor(() => /watching /.test(pilot.output()), 15_000, `"watching" in:\n${pilot.output()}`);
    expect(server.pairings).toBe(1); // no new pairing

    const first = path.join(shots, screenshotName(1, 2));
    fs.writeFileSync(first, 'x');
    await waitFor(() => positions(server).length === 1, 4000, 'the first position');
    await waitFor(() => !fs.existsSync(first), 4000, 'the screenshot deleted');

    server.nextMessageStatus = 404; // the server forgot the pairing
    fs.writeFileSync(path.join(shots, screenshotName(3, 4)), 'x');
    await waitFor(() => positions(server).length === 2, 4000, `the second position after pairing again:\n${pilot.output()}`);
    expect(positions(server)[1]).toMatchObject({ code: 'MNPQRSTUVW', body: { data: { x: 3, y: 4 } } });
    expect(pilot.output()).toContain('pairing code: MNPQR-STUVW');

    pilot.child.kill('SIGINT');
    expect(await pilot.exited).toBe(0);
  });

  it('stops with a clear message when the server refuses the token', async () => {
    const { server, shots, stateFile } = await setup();
    await fetch(`${server.url}/api/be/pilot/pairings`, { method: 'POST' });
    const pilot = track(startPilot(['--server', server.url, '--screenshots', shots, '--code', 'ABCDEFGHJK', '--token', 'stolen'], stateFile));
    expect(await pilot.exited).toBe(1);
    expect(pilot.output()).toMatch(/refused the publisher token of ABCDEFGHJK \(403\)/);
    // Refused before anything is shown: no code, QR code or link for a feed it cannot publish to.
    expect(pilot.output()).not.toContain('pairing code:');
    expect(pilot.output()).not.toContain('follow it on your phone');
  });

  it('explains a command-line mistake', async () => {
    const { shots, stateFile } = await setup();
    const pilot = track(startPilot(['--screenshots', shots, '--code', 'ABCDEFGHJK'], stateFile));
    expect(await pilot.exited).toBe(2);
    expect(pilot.output()).toContain('--code and --token go together');
    expect(pilot.output()).toContain('usage: npm run pilot');
  });
});

/**
 * The pairing client: gets the pairing the watcher publishes to (the one given on the command
 * line, the one remembered from the last run while the server still knows it, or a new one),
 * remembers it, and shows it (code, QR code, link) so a phone can follow it.
 */
import { networkInterfaces } from 'node:os';
import QRCode from 'qrcode';
import { formatPairingCode, pairingPath } from '../../src/domain/pilot';
import { retryDelayMs, secondsText } from '../../src/domain/pilot-watcher';
import type { Pairing, PilotApi } from './api';
import { loadPairing, savePairing } from './state';
import { wait } from './wait';

/** Pairing cannot go on (the server has no pilot API, or refused): the watcher stops. */
export class PairingError extends Error {}

export interface PairingDeps {
  api: PilotApi;
  /** The state file remembering the last pairing, or null to remember nothing. */
  stateFile: string | null;
  log: (line: string) => void;
  signal?: AbortSignal;
  now?: () => number;
  /** Retry delays: base and cap (ms). */
  retry?: { baseMs: number; maxMs: number };
}

/** The page that follows the code: `${server}/map/customs?connection=CODE`. */
export function pairingUrl(server: string, code: string): string {
  return `${server}${pairingPath(code)}`;
}

async function remember(deps: PairingDeps, pairing: Pairing): Promise<void> {
  if (deps.stateFile === null) return;
  try {
    await savePairing(deps.stateFile, { server: deps.api.server, ...pairing });
  } catch (error) {
    deps.log(`could not remember the pairing in ${deps.stateFile}: ${(error as Error).message}`);
  }
}

/** A new pairing from the server, retrying with back-off while it is unreachable. Null when stopped. */
export async function newPairing(deps: PairingDeps): Promise<Pairing | null> {
  for (let attempt = 1; !deps.signal?.aborted; attempt++) {
    const result = await deps.api.createPairing(deps.signal).catch((error: unknown) => {
      if (deps.signal?.aborted) return null;
      throw error;
    });
    if (result === null) return null;
    switch (result.kind) {
      case 'ok':
        await remember(deps, result.value);
        return result.value;
      case 'retry': {
        const delay = retryDelayMs(attempt, result.retryAfterMs, deps.retry?.baseMs, deps.retry?.maxMs);
        deps.log(`${result.reason}, retrying in ${secondsText(delay)}`);
        await wait(delay, deps.signal);
        break;
      }
      case 'gone':
        throw new PairingError(`${deps.api.server} has no pilot API (404): is it a raidmap server?`);
      case 'unauthorized':
        throw new PairingError(`${deps.api.server} refused to pair (${result.status})`);
      case 'refused':
        throw new PairingError(`${deps.api.server} refused to pair: ${result.reason}`);
    }
  }
  return null;
}

/**
 * The pairing to publish to: the given one; else the remembered one when it is for this server,
 * not expired and still known to the server (or the server cannot be asked right now: the
 * publisher pairs again if it turns out to be gone); else a new one. Null when stopped.
 */
export async function obtainPairing(deps: PairingDeps, given: Pick<Pairing, 'code' | 'token'> | null): Promise<Pairing | null> {
  const now = deps.now ?? Date.now;
  if (given !== null) {
    const info = await deps.api.getPairing(given.code, deps.signal);
    const pairing = { ...given, expiresAt: info.kind === 'ok' ? info.value.expiresAt : '' };
    if (info.kind === 'gone') deps.log('that pairing is unknown or expired on the server; pairing again');
    else {
      // The token is checked before the code and its QR code are shown: a page must not be
      // pointed at a feed this watcher cannot publish to.
      if (info.kind === 'ok') await checkToken(deps, given);
      if (pairing.expiresAt) await remember(deps, pairing);
      return pairing;
    }
  } else if (deps.stateFile !== null) {
    const saved = await loadPairing(deps.stateFile);
    if (saved && saved.server === deps.api.server && Date.parse(saved.expiresAt) > now()) {
      const info = await deps.api.getPairing(saved.code, deps.signal);
      const pairing = { code: saved.code, token: saved.token, expiresAt: info.kind === 'ok' ? info.value.expiresAt : saved.expiresAt };
      if (info.kind === 'ok' || info.kind === 'retry') {
        if (info.kind === 'ok') await remember(deps, pairing);
        return pairing;
      }
    }
  }
  return newPairing(deps);
}

/** Throws a PairingError when the server refuses `given`'s token (a keep-alive is the probe: it changes nothing). */
async function checkToken(deps: PairingDeps, given: Pick<Pairing, 'code' | 'token'>): Promise<void> {
  const answer = await deps.api.send(given, { type: 'ping' }, deps.signal);
  if (answer.kind !== 'unauthorized') return;
  throw new PairingError(refusedTokenText(given.code, answer.status));
}

/** Why the watcher stops when the server refuses its token (at start or while publishing). */
export function refusedTokenText(code: string, status: number): string {
  return (
    `the server refused the publisher token of ${code} (${status}). ` +
    'The code was paired by someone else or the token is wrong: run `npm run pilot` without --code/--token to pair anew.'
  );
}

/** Whether `server`'s host is this computer only (localhost, 127.x.x.x, ::1): no phone can open it. */
export function isLoopbackServer(server: string): boolean {
  let host: string;
  try {
    host = new URL(server).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * This computer's IPv4 addresses on its networks (not loopback), the ones a phone on the same
 * network could reach it by.
 */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
}

/**
 * Said under the link when the server is local: the QR code and the link only open on this
 * computer. A phone on the same network reaches the server by this computer's address (when the
 * server listens on it: HOST=0.0.0.0), given with --server.
 */
export function loopbackNote(server: string, addresses: readonly string[]): string[] {
  if (!isLoopbackServer(server)) return [];
  const url = new URL(server);
  const port = url.port ? `:${url.port}` : '';
  const lines = [`note: ${url.host} is this computer only, so a phone cannot open this link.`];
  if (addresses.length > 0) {
    const examples = addresses.map((a) => `--server ${url.protocol}//${a}${port}`).join(' or ');
    lines.push(`      For a phone on the same network, start the server with HOST=0.0.0.0 and run the watcher with ${examples}.`);
  } else {
    lines.push('      For a phone, run the watcher with --server and the address the phone reaches the site by.');
  }
  return lines;
}

/** The lines that show a pairing: code, QR code of the link (when `qr`), link, and a note when the link is local. */
export async function pairingLines(server: string, code: string, qr: boolean, addresses: readonly string[] = lanAddresses()): Promise<string[]> {
  const url = pairingUrl(server, code);
  const lines = [`pairing code: ${formatPairingCode(code)}`];
  if (qr) lines.push((await QRCode.toString(url, { type: 'terminal', small: true })).replace(/\n+$/, ''));
  lines.push(`follow it on your phone: ${url}`);
  lines.push(...loopbackNote(server, addresses));
  return lines;
}

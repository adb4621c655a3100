/**
 * The live feed end to end (issue 10): a screenshot file appears in the folder the watcher
 * (`npm run pilot`) watches → the watcher parses its name and publishes the position → the
 * server fans it out → the subscribed map page (`/map/{map}?connection=CODE`) draws it.
 *
 * Each update is timed from just before the file is written (epoch ms, this process) to the
 * first animation frame of the page in which `window.__map.player()` shows that position
 * (epoch ms in the page: `performance.timeOrigin + performance.now()`; one machine, one clock).
 * That frame is the one in which the engine draws the moved marker and starts its ping. Files
 * are written one at a time, `gapMs` apart, each with another x so every one is told apart.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startWatcherProcess } from '../../e2e/support/watcher';
import { summariseLatency, type LatencySummary } from './editor-stats';

export interface PilotLatencyOptions {
  browser: Browser;
  repoRoot: string;
  baseUrl: string;
  mapId: string;
  updates: number;
  /** Between two screenshots (ms). Default 600. */
  gapMs?: number;
  viewport: { width: number; height: number };
  log(message: string): void;
}

export interface PilotLatencyResult {
  /** File written → position drawn on the page. */
  latency: LatencySummary;
  /** Updates never seen on the page within 5 s. */
  missed: number;
}

interface Pairing {
  code: string;
  token: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pair(baseUrl: string): Promise<Pairing> {
  const response = await fetch(`${baseUrl}/api/be/pilot/pairings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (response.status !== 201) throw new Error(`pairing: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Pairing;
}

/** A screenshot name as the game writes it, with the position given (spec convention: x, y ground; z height). */
export function screenshotName(x: number, y: number, z: number, index: number): string {
  // Game order is X, Y (height), Z: the spec's x, z, y.
  return `2025-03-14[19-07]_${x.toFixed(2)}, ${z.toFixed(2)}, ${y.toFixed(2)}_0.00000, 0.70711, 0.00000, 0.70711_${index}.00 (0).png`;
}

/** Runs in the page: records the frame at which each new player x first shows. */
function installFrameProbe(): void {
  const w = window as unknown as {
    __map?: { player(): { x: number } | null };
    __pilotSeen: { x: number; at: number }[];
  };
  w.__pilotSeen = [];
  let last: number | null = null;
  const frame = () => {
    const x = w.__map?.player()?.x ?? null;
    if (x !== null && x !== last) {
      last = x;
      w.__pilotSeen.push({ x, at: performance.timeOrigin + performance.now() });
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

export async function measurePilotLatency(options: PilotLatencyOptions): Promise<PilotLatencyResult> {
  const { browser, baseUrl, mapId, updates, viewport, log } = options;
  const gapMs = options.gapMs ?? 600;
  const pairing = await pair(baseUrl);
  const folder = mkdtempSync(join(tmpdir(), 'raidmap-bench-screens-'));
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  let watcher: ChildProcess | undefined;
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/map/${mapId}?connection=${pairing.code}`);
    await page.waitForFunction(() => {
      const map = (window as unknown as { __map?: { ready: boolean; pilot(): { status: string } | null } }).__map;
      return map?.ready === true && map.pilot()?.status === 'connected';
    }, undefined, { timeout: 60_000 });
    // As a source with its own no-op `__name`: tsx wraps the probe's inner functions in calls to it.
    await page.evaluate(`(() => { const __name = (f) => f; (${installFrameProbe.toString()})(); })()`);
    watcher = await startWatcherProcess({ repoRoot: options.repoRoot, baseUrl, folder, code: pairing.code, token: pairing.token });
    log('bench: watcher started');
    // One update not counted: the first file also warms the watcher's and the page's paths.
    const latencies: number[] = [];
    let missed = 0;
    for (let i = 0; i <= updates; i += 1) {
      const x = -200 + i * 3.25;
      const writtenAt = Date.now();
      writeFileSync(join(folder, screenshotName(x, 50 + i, 1.5, i)), 'not a real png');
      const seenAt = await page
        .waitForFunction(
          (wanted) => (window as unknown as { __pilotSeen: { x: number; at: number }[] }).__pilotSeen.find((s) => Math.abs(s.x - wanted) < 1e-6)?.at ?? null,
          x,
          { timeout: 5000, polling: 20 },
        )
        .then((handle) => handle.jsonValue() as Promise<number>)
        .catch(() => null);
      if (i > 0) {
        if (seenAt === null) missed += 1;
        else latencies.push(seenAt - writtenAt);
      }
      await sleep(gapMs);
    }
    return { latency: summariseLatency(latencies), missed };
  } finally {
    watcher?.kill('SIGTERM');
    await context.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The live position feed's part of `npm run bench` (issue 10; `--pilot` runs only this part):
 * a server with the map seeded (1,000 markers: the page is a real map page), then per run
 * - latency: the watcher (`npm run pilot`) on a temporary folder, screenshots written one at a
 *   time, each timed until the subscribed page draws it (pilot-latency.ts);
 * - fan-out: `clients` streams on one code, a position published every 2 s (pilot-fanout.ts).
 * Figures are medians over the runs; the targets are checked, never failing the process.
 *
 * The fan-out clients all come from 127.0.0.1, so the server's cap on open connections per
 * address (64 by default, against one client hogging the server) is raised for this run:
 * 1,000 viewers of a stream are 1,000 addresses.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { MapId } from '../../src/domain/maps';
import { freshDataDir, startServer, type RunningServer } from '../../e2e/support/server';
import type { LatencySummary } from './editor-stats';
import { measurePilotFanout, type PilotFanoutResult } from './pilot-fanout';
import { measurePilotLatency, type PilotLatencyResult } from './pilot-latency';
import { median, type TargetCheck } from './stats';

export const PILOT_LATENCY_TARGET_MS = 150;
export const PILOT_FANOUT_TARGET_MS = 200;

export interface PilotBenchOptions {
  browser: Browser;
  repoRoot: string;
  mapId: MapId;
  tilesDir: string;
  runs: number;
  updates: number;
  clients: number;
  seconds: number;
  viewport: { width: number; height: number };
  log: (line: string) => void;
  notes: string[];
  onServer?: (server: RunningServer | undefined) => void;
}

export interface PilotSummary {
  runs: number;
  /** Medians over the runs of each run's figure. */
  latency: LatencySummary;
  latencyMissed: number;
  fanout: { clients: number; published: number; delivery: LatencySummary; missed: number; dropped: number; failedToOpen: number };
}

export interface PilotBenchResult {
  latencyRuns: PilotLatencyResult[];
  fanoutRuns: PilotFanoutResult[];
  summary: PilotSummary;
  targets: TargetCheck[];
}

function medianLatency(list: readonly LatencySummary[]): LatencySummary {
  const pick = (key: keyof LatencySummary) => median(list.map((l) => l[key]));
  return { n: pick('n'), p50: pick('p50'), p95: pick('p95'), p99: pick('p99'), max: pick('max'), mean: pick('mean') };
}

const fmt = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

export function summarisePilot(latencyRuns: readonly PilotLatencyResult[], fanoutRuns: readonly PilotFanoutResult[]): PilotSummary {
  return {
    runs: Math.max(latencyRuns.length, fanoutRuns.length),
    latency: medianLatency(latencyRuns.map((r) => r.latency)),
    latencyMissed: latencyRuns.reduce((sum, r) => sum + r.missed, 0),
    fanout: {
      clients: median(fanoutRuns.map((r) => r.clients)),
      published: median(fanoutRuns.map((r) => r.published)),
      delivery: medianLatency(fanoutRuns.map((r) => r.delivery)),
      missed: fanoutRuns.reduce((sum, r) => sum + r.missed, 0),
      dropped: fanoutRuns.reduce((sum, r) => sum + r.dropped, 0),
      failedToOpen: fanoutRuns.reduce((sum, r) => sum + r.failedToOpen, 0),
    },
  };
}

/** The targets: screenshot → drawn p95 ≤ 150 ms; 1,000 clients, delivery p95 ≤ 200 ms, nothing dropped. */
export function checkPilotTargets(summary: PilotSummary, wantedClients: number): TargetCheck[] {
  const { latency, fanout } = summary;
  return [
    {
      target: `screenshot written → position drawn on a subscribed page, p95 ≤ ${PILOT_LATENCY_TARGET_MS} ms`,
      measured: `p50 ${fmt(latency.p50)} ms, p95 ${fmt(latency.p95)} ms, ${summary.latencyMissed} never drawn`,
      met: Number.isFinite(latency.p95) ? latency.p95 <= PILOT_LATENCY_TARGET_MS && summary.latencyMissed === 0 : null,
    },
    {
      target: `${wantedClients.toLocaleString('en-US')} subscribed clients, a position each 2 s: delivery p95 ≤ ${PILOT_FANOUT_TARGET_MS} ms, no dropped connection`,
      measured:
        `${fanout.clients} clients, p50 ${fmt(fanout.delivery.p50)} ms, p95 ${fmt(fanout.delivery.p95)} ms, max ${fmt(fanout.delivery.max)} ms, ` +
        `${fanout.dropped} dropped, ${fanout.missed} missed, ${fanout.failedToOpen} failed to open`,
      met: Number.isFinite(fanout.delivery.p95)
        ? fanout.delivery.p95 <= PILOT_FANOUT_TARGET_MS && fanout.dropped === 0 && fanout.missed === 0 && fanout.failedToOpen === 0 && fanout.clients >= wantedClients
        : null,
    },
  ];
}

export function pilotTextTable(summary: PilotSummary): string {
  const { latency, fanout } = summary;
  return [
    `  screenshot → drawn   n ${latency.n}  p50 ${fmt(latency.p50)} ms  p95 ${fmt(latency.p95)} ms  p99 ${fmt(latency.p99)} ms  max ${fmt(latency.max)} ms`,
    `  fan-out (${fanout.clients} clients × ${fanout.published} positions)  p50 ${fmt(fanout.delivery.p50)} ms  p95 ${fmt(fanout.delivery.p95)} ms  p99 ${fmt(fanout.delivery.p99)} ms  max ${fmt(fanout.delivery.max)} ms`,
  ].join('\n');
}

export function pilotMarkdownTable(summary: PilotSummary): string {
  const { latency, fanout } = summary;
  return [
    '| Live feed | n | p50 | p95 | p99 | max |',
    '|---|---:|---:|---:|---:|---:|',
    `| screenshot written → drawn on the page | ${latency.n} | ${fmt(latency.p50)} ms | ${fmt(latency.p95)} ms | ${fmt(latency.p99)} ms | ${fmt(latency.max)} ms |`,
    `| publish → event at each of ${fanout.clients} clients | ${fmt(fanout.delivery.n)} | ${fmt(fanout.delivery.p50)} ms | ${fmt(fanout.delivery.p95)} ms | ${fmt(fanout.delivery.p99)} ms | ${fmt(fanout.delivery.max)} ms |`,
  ].join('\n');
}

export async function runPilotBench(options: PilotBenchOptions): Promise<PilotBenchResult> {
  const { browser, mapId, log, notes } = options;
  const dataDir = freshDataDir('raidmap-bench-pilot-');
  const latencyRuns: PilotLatencyResult[] = [];
  const fanoutRuns: PilotFanoutResult[] = [];
  let server: RunningServer | undefined;
  try {
    log(`bench: pilot: starting the server on ${mapId}...`);
    server = await startServer({
      repoRoot: options.repoRoot,
      dataDir,
      env: {
        SEED_MAPS: mapId,
        MARKERS_PER_MAP: '1000',
        TILES_DIR: options.tilesDir,
        MAX_CONNECTIONS_PER_ADDRESS: String(options.clients + 200),
      },
      startTimeoutMs: 600_000,
      tilesTimeoutMs: 600_000,
    });
    options.onServer?.(server);
    const baseUrl = server.baseUrl;
    for (let run = 1; run <= options.runs; run += 1) {
      try {
        const latency = await measurePilotLatency({ browser, repoRoot: options.repoRoot, baseUrl, mapId, updates: options.updates, viewport: options.viewport, log });
        latencyRuns.push(latency);
        log(`bench: pilot: run ${run}: screenshot → drawn p50 ${fmt(latency.latency.p50)} ms, p95 ${fmt(latency.latency.p95)} ms, ${latency.missed} missed`);
      } catch (error) {
        notes.push(`pilot latency run ${run} failed: ${(error as Error).message.split('\n')[0]}`);
        log(`bench: pilot: latency run ${run} failed: ${(error as Error).message}`);
      }
      try {
        const fanout = await measurePilotFanout({ baseUrl, clients: options.clients, seconds: options.seconds, log });
        fanoutRuns.push(fanout);
        log(
          `bench: pilot: run ${run}: ${fanout.clients} clients, delivery p50 ${fmt(fanout.delivery.p50)} ms, p95 ${fmt(fanout.delivery.p95)} ms, ` +
            `${fanout.dropped} dropped, ${fanout.missed} missed`,
        );
      } catch (error) {
        notes.push(`pilot fan-out run ${run} failed: ${(error as Error).message.split('\n')[0]}`);
        log(`bench: pilot: fan-out run ${run} failed: ${(error as Error).message}`);
      }
    }
  } finally {
    await server?.stop();
    options.onServer?.(undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const summary = summarisePilot(latencyRuns, fanoutRuns);
  return { latencyRuns, fanoutRuns, summary, targets: checkPilotTargets(summary, options.clients) };
}

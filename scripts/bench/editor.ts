/**
 * The admin-editor part of `npm run bench` (issue 8; `--editor` runs only this part): a server
 * seeded with 10,000 markers on the map and the demo accounts (NODE_ENV=development,
 * DEMO_ACCOUNTS=1), a warm-up browser run (not counted), then per run the browser run
 * (scripts/bench/editor-run.ts) and the server round trips (scripts/bench/editor-server.ts).
 * Figures are medians over the runs; the targets are checked, never failing the process.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { MAPS, type MapId } from '../../src/domain/maps';
import { freshDataDir, startServer, type RunningServer } from '../../e2e/support/server';
import type { Viewport } from './gesture';
import { measureEditorRun } from './editor-run';
import { measureServer } from './editor-server';
import { checkEditorTargets, medianOfRecords, type EditorBrowserResult, type EditorServerResult, type EditorSummary } from './editor-stats';
import type { TargetCheck } from './stats';

export const EDITOR_MARKERS = 10_000;

export interface EditorBenchOptions {
  browser: Browser;
  repoRoot: string;
  mapId: MapId;
  tilesDir: string;
  runs: number;
  actions: number;
  requests: number;
  clients: number;
  viewport: Viewport;
  /** Query of the map page's address (`?render=worker`), '' for none. */
  search?: string;
  log: (line: string) => void;
  /** Failed runs and other remarks land here. */
  notes: string[];
  /** Receives the running server (for a kill on SIGINT). */
  onServer?: (server: RunningServer | undefined) => void;
}

export interface EditorBenchResult {
  markers: number;
  browserRuns: EditorBrowserResult[];
  serverRuns: EditorServerResult[];
  summary: EditorSummary;
  targets: TargetCheck[];
}

async function countMarkers(baseUrl: string, mapId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/be/markers/list?map=${mapId}`);
  if (!response.ok) throw new Error(`marker list: HTTP ${response.status}`);
  return ((await response.json()) as { markers: unknown[] }).markers.length;
}

const fmt = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

export async function runEditorBench(options: EditorBenchOptions): Promise<EditorBenchResult> {
  const { browser, mapId, log, notes, viewport } = options;
  const dataDir = freshDataDir('raidmap-bench-editor-');
  const browserRuns: EditorBrowserResult[] = [];
  const serverRuns: EditorServerResult[] = [];
  let server: RunningServer | undefined;
  try {
    log(`bench: editor: starting the server with ${EDITOR_MARKERS} markers on ${mapId} and the demo accounts...`);
    server = await startServer({
      repoRoot: options.repoRoot,
      dataDir,
      env: { NODE_ENV: 'development', DEMO_ACCOUNTS: '1', SEED_MAPS: mapId, MARKERS_PER_MAP: String(EDITOR_MARKERS), TILES_DIR: options.tilesDir },
      startTimeoutMs: 600_000,
      tilesTimeoutMs: 600_000,
    });
    options.onServer?.(server);
    const seeded = await countMarkers(server.baseUrl, mapId);
    if (seeded !== EDITOR_MARKERS) notes.push(`editor: asked for ${EDITOR_MARKERS} markers, the server seeded ${seeded}`);
    const base = { browser, baseUrl: server.baseUrl, mapId, viewport, search: options.search, log: (line: string) => log(`bench: editor: ${line}`) };

    log('bench: editor: warm-up run (5 actions, not counted)');
    try {
      await measureEditorRun({ ...base, run: 0, actions: 5, idleWindows: 2 });
    } catch (error) {
      notes.push(`editor warm-up failed: ${(error as Error).message.split('\n')[0]}`);
    }

    for (let run = 1; run <= options.runs; run += 1) {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        try {
          const result = await measureEditorRun({ ...base, run, actions: options.actions });
          browserRuns.push(result);
          log(
            `bench: editor run ${run}: main-thread ms per action p50 / p95: place ${fmt(result.place.taskP50)} / ${fmt(result.place.taskP95)}, ` +
              `move ${fmt(result.move.taskP50)} / ${fmt(result.move.taskP95)}, delete ${fmt(result.delete.taskP50)} / ${fmt(result.delete.taskP95)} ` +
              `(CPU p50: ${fmt(result.place.cpuP50)}, ${fmt(result.move.cpuP50)}, ${fmt(result.delete.cpuP50)}); idle ${fmt(result.idleTaskMsPerS, 1)} ms/s; frames > 50 ms: ${result.frames.framesOver50}, longest task ${fmt(result.frames.longestTaskMs, 0)} ms`,
          );
          break;
        } catch (error) {
          const what = `editor browser run ${run}, attempt ${attempt}: ${(error as Error).message.split('\n')[0]}`;
          log(`bench: failed: ${what}`);
          notes.push(`run failed: ${what}`);
        }
      }
      try {
        const result = await measureServer({ baseUrl: server.baseUrl, mapId, run, requests: options.requests, clients: options.clients, area: MAPS[mapId].size });
        serverRuns.push(result);
        log(
          `bench: editor server run ${run}: add p50 / p95 ${fmt(result.sequential.add.p50)} / ${fmt(result.sequential.add.p95)} ms, ` +
            `update ${fmt(result.sequential.update.p50)} / ${fmt(result.sequential.update.p95)} ms; ${result.concurrent.clients} clients: ` +
            `add ${fmt(result.concurrent.add.p95)}, update ${fmt(result.concurrent.update.p95)} ms p95`,
        );
      } catch (error) {
        const what = `editor server run ${run}: ${(error as Error).message.split('\n')[0]}`;
        log(`bench: failed: ${what}`);
        notes.push(`run failed: ${what}`);
      }
    }
    const left = await countMarkers(server.baseUrl, mapId);
    if (left !== seeded) notes.push(`editor: the server has ${left} markers after the runs, ${seeded} before (a delete did not happen)`);
  } finally {
    await server?.stop();
    options.onServer?.(undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const summary: EditorSummary = {
    runs: Math.max(browserRuns.length, serverRuns.length),
    browser: browserRuns.length > 0 ? medianOfRecords(browserRuns) : null,
    server: serverRuns.length > 0 ? medianOfRecords(serverRuns) : null,
  };
  return { markers: EDITOR_MARKERS, browserRuns, serverRuns, summary, targets: checkEditorTargets(summary) };
}

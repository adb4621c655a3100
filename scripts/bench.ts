/**
 * `npm run bench` (after `npm run build`): the map engine under a fixed 8-second gesture of
 * real wheel and drag input, on customs with 1,000 / 10,000 / 100,000 markers, at CPU
 * throttle 1 and 4, median of several runs; and the admin editor at 10,000 markers (marker
 * placed / moved / deleted in the browser, the server's add / update round trip; `--editor`
 * runs only that part, `--engine` only the engine); and the live position feed (`--pilot`:
 * screenshot → drawn latency through the watcher, fan-out to 1,000 streams). Prints tables and writes JSON and
 * Markdown to bench-results/. Method and results: docs/PERFORMANCE.md.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMapId, type MapId } from '../src/domain/maps';
import { launchChromium } from '../e2e/support/chromium';
import { freshDataDir, startServer, type RunningServer } from '../e2e/support/server';
import { runEditorBench, type EditorBenchResult } from './bench/editor';
import { editorMarkdownTables, editorTextTables } from './bench/editor-report';
import { parseOptions } from './bench/options';
import { pilotMarkdownTable, pilotTextTable, runPilotBench, type PilotBenchResult } from './bench/pilot';
import { markdownTable, markdownTargets, textTable } from './bench/report';
import { measureRun, type RunOptions } from './bench/run';
import { checkTargets, medianOfRuns, type RunResult, type Summary } from './bench/stats';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VIEWPORT = { width: 1280, height: 800 };

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

async function countMarkers(baseUrl: string, mapId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/be/markers/list?map=${mapId}`);
  if (!response.ok) throw new Error(`marker list: HTTP ${response.status}`);
  const body = (await response.json()) as { markers: unknown[] };
  return body.markers.length;
}

/** Fails the benchmark with the server's output when the server stopped answering. */
async function assertServerUp(server: RunningServer): Promise<void> {
  const ok = await fetch(`${server.baseUrl}/api/be/health`, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.ok,
    () => false,
  );
  if (!ok) throw new Error(`the server stopped answering during the run\n--- server output ---\n${server.logs().slice(-40).join('\n')}`);
}

/** One run, tried twice: a run that fails twice is noted and left out, the benchmark goes on. */
async function measureWithRetry(options: RunOptions, notes: string[]): Promise<RunResult | null> {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    try {
      return await measureRun(options);
    } catch (error) {
      const what = `${options.markers} markers, throttle ${options.throttle}, run ${options.run}, attempt ${attempt}: ${(error as Error).message.split('\n')[0]}`;
      log(`bench: failed: ${what}`);
      notes.push(`run failed: ${what}`);
    }
  }
  return null;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  // Where the pages draw the map (docs/ENGINE-WORKER.md): the same figures, main thread or render worker.
  // Always explicit, so a run says what it measured whatever the app's default.
  const search = `?render=${options.render}`;
  const renderNote = [options.render === 'worker' ? 'pages drew the map in the render worker (--render worker, ?render=worker, the default)' : 'pages drew the map on the main thread (--render main, ?render=main)'];
  if (!isMapId(options.map)) throw new Error(`unknown map "${options.map}"`);
  const loadAtStart = loadavg()[0];
  const tilesDir = options.tilesDir ? resolve(options.tilesDir) : freshDataDir('raidmap-bench-tiles-');
  if (options.tilesDir) mkdirSync(tilesDir, { recursive: true });
  const results: RunResult[] = [];
  const notes: string[] = [...renderNote];
  let server: RunningServer | undefined;
  const stopOnSignal = () => {
    server?.killNow();
    process.exit(130);
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const browser = await launchChromium();
  const chromiumVersion = browser.version();
  let editor: EditorBenchResult | null = null;
  let pilot: PilotBenchResult | null = null;
  try {
    for (const markers of options.parts.engine ? options.markers : []) {
      const dataDir = freshDataDir(`raidmap-bench-${markers}-`);
      try {
        log(`bench: starting the server with ${markers} markers on ${options.map}...`);
        const seeded = Date.now();
        server = await startServer({
          repoRoot,
          dataDir,
          env: { SEED_MAPS: options.map, MARKERS_PER_MAP: String(markers), TILES_DIR: tilesDir },
          startTimeoutMs: 600_000,
          tilesTimeoutMs: 600_000,
        });
        const actual = await countMarkers(server.baseUrl, options.map);
        log(`bench: server up in ${((Date.now() - seeded) / 1000).toFixed(1)} s with ${actual} markers on ${options.map}`);
        if (actual !== markers) notes.push(`asked for ${markers} markers, the server seeded ${actual}`);

        // A warm-up run renders and caches the deep tiles on the server, so runs compare.
        log('bench: warm-up run');
        await measureRun({ browser, baseUrl: server.baseUrl, mapId: options.map, markers, throttle: 1, run: 0, viewport: VIEWPORT, search });
        await assertServerUp(server);
        for (const throttle of options.throttle) {
          for (let run = 1; run <= options.runs; run += 1) {
            const result = await measureWithRetry(
              { browser, baseUrl: server.baseUrl, mapId: options.map, markers, throttle, run, viewport: VIEWPORT, search },
              notes,
            );
            await assertServerUp(server);
            if (!result) continue;
            results.push(result);
            log(
              `bench: ${markers} markers, throttle ${throttle}, run ${run}: ${result.fps.toFixed(1)} fps, busy ${result.busyPct.toFixed(1)} %, ` +
                `lag ${result.inputLagMs.toFixed(0)} ms, engine p95 ${result.engineP95.toFixed(2)} ms, ready ${result.readyMs.toFixed(0)} ms, ` +
                `first tile ${result.firstTileMs.toFixed(0)} ms, opened again: ready ${result.reopenReadyMs.toFixed(0)} ms, first tile ${result.reopenFirstTileMs.toFixed(0)} ms`,
            );
          }
        }
      } finally {
        await server?.stop();
        server = undefined;
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    if (options.parts.editor) {
      editor = await runEditorBench({
        browser,
        repoRoot,
        mapId: options.map as MapId,
        tilesDir,
        runs: options.runs,
        actions: options.actions,
        requests: options.requests,
        clients: options.clients,
        viewport: VIEWPORT,
        search,
        log,
        notes,
        onServer: (running) => {
          server = running;
        },
      });
    }
    if (options.parts.pilot) {
      pilot = await runPilotBench({
        browser,
        repoRoot,
        mapId: options.map as MapId,
        tilesDir,
        runs: options.runs,
        updates: options.pilotUpdates,
        clients: options.pilotClients,
        seconds: options.pilotSeconds,
        viewport: VIEWPORT,
        log,
        notes,
        onServer: (running) => {
          server = running;
        },
      });
    }
  } finally {
    await browser.close();
    if (!options.tilesDir) rmSync(tilesDir, { recursive: true, force: true });
  }

  const summaries: Summary[] = [];
  for (const markers of options.parts.engine ? options.markers : []) {
    for (const throttle of options.throttle) {
      const group = results.filter((r) => r.markers === markers && r.throttle === throttle);
      if (group.length > 0) summaries.push(medianOfRuns(group));
    }
  }
  const targets = options.parts.engine ? checkTargets(summaries) : [];
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${osType()} ${release()}`,
    node: process.version,
    chromium: chromiumVersion,
    gpu: 'none (WebGL on SwiftShader)',
    /** 1-minute load average when the benchmark started and ended: other work on the machine skews every figure. */
    loadAverage: { start: Number(loadAtStart.toFixed(2)), end: Number(loadavg()[0].toFixed(2)) },
  };
  const date = new Date().toISOString();

  console.log(`\nraidmap benchmark, ${options.map}, ${VIEWPORT.width}×${VIEWPORT.height}, medians of ${options.runs} runs (${date})`);
  console.log(`load average ${machine.loadAverage.start} → ${machine.loadAverage.end} on ${machine.cores} cores`);
  if (options.parts.engine) console.log(textTable(summaries));
  if (editor) {
    console.log(`\nAdmin editor, ${editor.markers.toLocaleString('en-US')} markers, ${options.actions} actions of each kind, ${options.requests} requests of each kind, medians of ${editor.summary.runs} runs:`);
    console.log(editorTextTables(editor.summary));
  }
  if (pilot) {
    console.log(`\nLive position feed, ${options.pilotUpdates} screenshots, ${options.pilotClients} clients for ${options.pilotSeconds} s, medians of ${pilot.summary.runs} runs:`);
    console.log(pilotTextTable(pilot.summary));
  }
  console.log('\nTargets:');
  for (const t of [...targets, ...(editor?.targets ?? []), ...(pilot?.targets ?? [])]) console.log(`  ${t.met === null ? '  -   ' : t.met ? '  met ' : 'MISSED'}  ${t.target}: ${t.measured}`);
  for (const note of notes) console.log(`note: ${note}`);

  const outDir = resolve(repoRoot, options.outDir);
  mkdirSync(outDir, { recursive: true });
  const stamp = date.replace(/[:.]/g, '-');
  const json = { date, machine, options, viewport: VIEWPORT, notes, runs: results, summaries, targets, editor, pilot };
  writeFileSync(join(outDir, `bench-${stamp}.json`), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(json, null, 2)}\n`);
  const markdown = [
    `Measured ${date} on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), ${machine.os}, Node ${machine.node}, Chromium ${machine.chromium}, ${machine.gpu}.`,
    `Map ${options.map}, window ${VIEWPORT.width}×${VIEWPORT.height}, medians of ${options.runs} runs. ` +
      `1-minute load average ${machine.loadAverage.start} at the start, ${machine.loadAverage.end} at the end (${machine.cores} cores).`,
    ...(options.parts.engine ? ['', markdownTable(summaries), '', markdownTargets(targets)] : []),
    ...(editor
      ? [
          '',
          `Admin editor, ${editor.markers.toLocaleString('en-US')} markers, ${options.actions} actions of each kind, ${options.requests} requests of each kind, medians of ${editor.summary.runs} runs:`,
          '',
          editorMarkdownTables(editor.summary),
          '',
          markdownTargets(editor.targets),
        ]
      : []),
    ...(pilot
      ? [
          '',
          `Live position feed, ${options.pilotUpdates} screenshots per run, ${options.pilotClients} clients for ${options.pilotSeconds} s, medians of ${pilot.summary.runs} runs:`,
          '',
          pilotMarkdownTable(pilot.summary),
          '',
          markdownTargets(pilot.targets),
        ]
      : []),
    ...notes.map((note) => `\nNote: ${note}`),
  ].join('\n');
  writeFileSync(join(outDir, 'latest.md'), `${markdown}\n`);
  log(`bench: wrote ${join(options.outDir, `bench-${stamp}.json`)} and ${join(options.outDir, 'latest.md')}`);
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.message}`);
  process.exit(1);
});

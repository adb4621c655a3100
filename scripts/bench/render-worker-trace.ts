/**
 * `npx tsx scripts/bench/render-worker-trace.ts [--markers 10000] [--runs 2] [--min 3] [--dist DIR] [--tiles DIR] [--save DIR]`:
 * what holds the render worker's thread during a map page's cold start (issue 11). Each run opens
 * the map in a fresh context with a Chrome trace on, and prints the render worker's tasks of at
 * least `--min` ms (start from navigation, length, script, requests sent, GC: worker-tasks.ts)
 * and the page's `raidmap:*` marks. `--save DIR` keeps each trace (DevTools' Performance panel opens it). docs/PERFORMANCE.md
 * ("Fourteenth session") has what it showed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium';
import { parseCommandLine } from './options';
import { PROFILE_OPTIONS, profileSettings, startProfileServer } from './profile-session';
import { renderWorkerTasks, type WorkerTraceEvent } from './worker-tasks';

const USAGE = 'usage: render-worker-trace.ts [--markers 10000] [--runs 2] [--min 3] [--dist DIR] [--tiles DIR] [--save DIR]';
const { values: args } = parseCommandLine(
  () => parseArgs({ options: { ...PROFILE_OPTIONS, runs: { type: 'string', default: '2' }, min: { type: 'string', default: '3' }, save: { type: 'string' } } }),
  USAGE,
);
const settings = profileSettings(args, USAGE);
const minMs = Number(args.min);
if (!(minMs >= 0)) {
  console.error(`--min must be a number of ms, 0 or more\n${USAGE}`);
  process.exit(2);
}
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink.user_timing', 'loading'];

async function main(): Promise<void> {
  const server = await startProfileServer(settings, 'raidmap-worker-trace-');
  const browser = await launchChromium();
  try {
    for (let run = 1; run <= settings.runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(`${server.baseUrl}/map/customs`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (window as unknown as { __map?: { ready: boolean } }).__map?.ready === true, undefined, { timeout: 60_000, polling: 50 });
      const trace = await browser.stopTracing();
      const marks = await page.evaluate(() =>
        performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('raidmap:'))
          .map((m) => `${m.name.slice(8)} ${Math.round(m.startTime)}`),
      );
      await context.close();
      if (args.save) {
        mkdirSync(args.save, { recursive: true });
        writeFileSync(resolve(args.save, `render-worker-${run}-${Date.now()}.json`), trace);
      }
      const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: WorkerTraceEvent[] };
      const worker = renderWorkerTasks(traceEvents, /render\.worker-[\w-]+\.js/, minMs);
      console.log(`\nrun ${run}: marks (ms from navigation): ${marks.join(', ')}`);
      if (!worker) {
        console.log('  no render worker in the trace (drawn on the main thread?)');
        continue;
      }
      console.log(`  render worker's tasks of ${minMs} ms or more (thread ${worker.thread}):`);
      console.log('  | start ms | length ms | script ms | requests sent | GC ms |\n  |---:|---:|---:|---:|---:|');
      for (const t of worker.tasks) console.log(`  | ${t.startMs.toFixed(0)} | ${t.durationMs.toFixed(1)} | ${t.scriptMs.toFixed(1)} | ${t.requests} | ${t.gcMs.toFixed(1)} |`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

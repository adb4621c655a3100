/**
 * `npx tsx scripts/bench/first-paint-trace.ts [--markers 10000] [--dist DIR] [--data DIR] [--tiles DIR] [--timeline] [--min-task MS] [--save trace.json]`: where the
 * first second goes (issue 11). Opens the map in a fresh context with a Chrome trace running,
 * then again in the same context (warm HTTP cache), and prints a waterfall: the page's
 * requests (start → end, size), the main thread's busiest tasks before ready (from the trace's
 * top-level tasks and their JavaScript), firstTileAt and ready. docs/PERFORMANCE.md has what it showed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/chromium';
import { freshDataDir, startServer } from '../../e2e/support/server';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseCommandLine(() => parseArgs({
  options: {
    markers: { type: 'string', default: '10000' },
    dist: { type: 'string' },
    data: { type: 'string' },
    tiles: { type: 'string' },
    timeline: { type: 'boolean', default: false },
    'min-task': { type: 'string', default: '15' },
    save: { type: 'string' },
  },
}), 'usage: first-paint-trace.ts [--markers 10000] [--dist DIR] [--data DIR] [--tiles DIR] [--timeline] [--min-task MS] [--save trace.json]');
const markers = Number(args.markers);
const dataDir = args.data ?? freshDataDir('raidmap-trace-');
mkdirSync(dataDir, { recursive: true });

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; cat: string; args?: { data?: { url?: string; functionName?: string } } }

async function open(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 50 });
  return page.evaluate(() => {
    const w = window as unknown as { __bench: BenchProbe; __map?: { firstTileAt?: () => number | null } };
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      url: r.name.replace(location.origin, ''),
      start: Math.round(r.startTime),
      end: Math.round(r.responseEnd),
      bytes: r.transferSize,
      body: r.encodedBodySize,
    }));
    return {
      ready: Math.round(w.__bench.readyAt ?? Number.NaN),
      firstTile: Math.round(w.__map?.firstTileAt?.() ?? Number.NaN),
      domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
      resources,
    };
  });
}

function print(label: string, r: Awaited<ReturnType<typeof open>>) {
  console.log(`\n== ${label}: DOMContentLoaded ${r.domContentLoaded} ms, first tile ${r.firstTile} ms, ready ${r.ready} ms`);
  const tiles = r.resources.filter((x) => x.url.startsWith('/tiles/') && !x.url.endsWith('manifest.json'));
  for (const x of r.resources.filter((x) => !x.url.startsWith('/tiles/') || x.url.endsWith('manifest.json'))) {
    if (x.start > r.ready) continue;
    console.log(`  ${String(x.start).padStart(5)} → ${String(x.end).padStart(5)} ms  ${String(x.bytes).padStart(9)} B on the wire  ${x.url.slice(0, 90)}`);
  }
  if (tiles.length > 0) {
    const before = tiles.filter((t) => t.start < r.ready);
    console.log(`  tiles before ready: ${before.length}, first asked at ${Math.min(...before.map((t) => t.start))} ms, first in at ${Math.min(...before.map((t) => t.end))} ms, ${before.filter((t) => t.bytes === 0).length} from the cache`);
  }
}

async function main() {
  const server = await startServer({
    repoRoot,
    dataDir,
    env: { SEED_MAPS: 'customs', MARKERS_PER_MAP: String(markers), ...(args.dist ? { DIST_DIR: resolve(args.dist) } : {}), ...(args.tiles ? { TILES_DIR: resolve(args.tiles) } : {}) },
    startTimeoutMs: 600_000,
    tilesTimeoutMs: 600_000,
  });
  const browser = await launchChromium();
  try {
    const url = `${server.baseUrl}/map/customs`;
    // Warm the server's caches (lists, deep tiles) as the benchmark's warm-up run does.
    {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p = await ctx.newPage();
      await p.addInitScript({ content: probeScript() });
      await open(p, url);
      await ctx.close();
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript({ content: probeScript() });
    const cdp = await context.newCDPSession(page);
    const events: TraceEvent[] = [];
    (cdp as unknown as { on(event: string, listener: (e: { value: TraceEvent[] }) => void): void }).on('Tracing.dataCollected', (e) => events.push(...e.value));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,toplevel', transferMode: 'ReportEvents' } as never);
    const cold = await open(page, url);
    const done = new Promise<void>((r) => (cdp as unknown as { once(event: string, listener: () => void): void }).once('Tracing.tracingComplete', () => r()));
    await cdp.send('Tracing.end');
    await done;
    print(`cold cache, ${markers} markers`, cold);
    if (args.save) writeFileSync(resolve(args.save), JSON.stringify({ traceEvents: events }));
    // The renderer main thread: the thread of the most 'FunctionCall' time.
    const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'TracingStartedInBrowser');
    const t0 = events.filter((e) => e.name === 'navigationStart').map((e) => e.ts).sort((a, b) => b - a)[0] ?? nav?.ts ?? 0;
    const byThread = new Map<string, number>();
    for (const e of events) if (e.ph === 'X' && e.name === 'RunTask' && e.dur) byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
    const main = events.find((e) => e.name === 'TracingStartedInBrowser') ? [...byThread.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] : undefined;
    const tasks = events
      .filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === main && e.dur && (e.ts - t0) / 1000 < cold.ready)
      .sort((a, b) => b.dur! - a.dur!)
      .slice(0, 8);
    const busy = events
      .filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === main && e.dur && (e.ts - t0) / 1000 < cold.ready)
      .reduce((s, e) => s + e.dur! / 1000, 0);
    console.log(`  main thread busy before ready: ${busy.toFixed(0)} ms; longest tasks:`);
    for (const t of tasks) {
      const inner = events
        .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.ts >= t.ts && e.ts < t.ts + t.dur! && e.name !== 'RunTask' && (e.dur ?? 0) > t.dur! * 0.3)
        .map((e) => `${e.name}${e.args?.data?.url ? ` ${e.args.data.url.replace(server.baseUrl, '').slice(0, 50)}` : ''}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${((e.dur ?? 0) / 1000).toFixed(0)} ms`)
        .slice(0, 4);
      console.log(`    at ${((t.ts - t0) / 1000).toFixed(0)} ms: ${(t.dur! / 1000).toFixed(0)} ms  ${inner.join(' | ')}`);
    }
    if (args.timeline) {
      console.log(`  main-thread tasks over ${args['min-task']} ms before ready, in order:`);
      const ordered = events
        .filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === main && (e.dur ?? 0) > Number(args['min-task']) * 1000 && (e.ts - t0) / 1000 < cold.ready)
        .sort((a, b) => a.ts - b.ts);
      for (const t of ordered) {
        const inner = events
          .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.ts >= t.ts && e.ts < t.ts + t.dur! && e.name !== 'RunTask' && (e.dur ?? 0) > t.dur! * 0.2)
          .map((e) => `${e.name}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${((e.dur ?? 0) / 1000).toFixed(0)}`)
          .slice(0, 5);
        console.log(`    ${((t.ts - t0) / 1000).toFixed(0)} ms +${(t.dur! / 1000).toFixed(0)}: ${inner.join(' | ')}`);
      }
    }
    await page.close();
    const again = await context.newPage();
    await again.addInitScript({ content: probeScript() });
    print(`opened again (warm HTTP cache), ${markers} markers`, await open(again, url));
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: Error) => {
  console.error(`trace failed: ${error.message}`);
  process.exit(1);
});

/**
 * `npx tsx scripts/bench/first-paint-ab.ts --a DIR --b DIR [--a-root REPO] [--b-root REPO] [--a-search ?Q] [--b-search ?Q] [--runs 8] [--markers 10000] [--tiles DIR]`:
 * an A/B of the first second (issue 11) between two builds of the site. `--a-root` / `--b-root`
 * run that arm's server from another checkout (a `git worktree` of the commit before a server
 * change, with this repository's node_modules linked in), so server changes pair too. `--a-search` /
 * `--b-search` add a query to that arm's map address (`?render=worker`: the same build drawing
 * in the render worker against the main thread, docs/ENGINE-WORKER.md). One server per build
 * (same seed, same tiles), then the builds take turns, A B A B…, each run a fresh browser
 * context (cold HTTP cache) opening /map/customs and then opening it again in the same context
 * (warm cache). Prints the medians of first tile and ready per build and their ratio B / A.
 * Taking turns on one machine puts both builds under the same background load, which on a
 * shared machine moves single runs by ±100 ms; the medians of the pairs are what to compare.
 */
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/chromium';
import { freshDataDir, startServer, type RunningServer } from '../../e2e/support/server';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const USAGE = 'usage: first-paint-ab.ts --a DIST_DIR --b DIST_DIR [--a-root REPO] [--b-root REPO] [--a-search ?QUERY] [--b-search ?QUERY] [--runs 8] [--markers 10000] [--tiles DIR]';
const { values: args } = parseCommandLine(() => parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    'a-root': { type: 'string' },
    'b-root': { type: 'string' },
    'a-search': { type: 'string', default: '' },
    'b-search': { type: 'string', default: '' },
    runs: { type: 'string', default: '8' },
    markers: { type: 'string', default: '10000' },
    tiles: { type: 'string' },
  },
}), USAGE);
const runs = Number(args.runs);
const markers = Number(args.markers);
const builds = { A: args.a, B: args.b };
const roots = { A: resolve(args['a-root'] ?? repoRoot), B: resolve(args['b-root'] ?? repoRoot) };
const searches = { A: args['a-search'] ?? '', B: args['b-search'] ?? '' };
if (!builds.A || !builds.B || !(runs > 0)) {
  console.error(USAGE);
  process.exit(2);
}

interface Timing {
  /** The engine's first frame with a tile. */
  firstTile: number;
  /** The first map tiles on screen: the poster's (src/ui/map/poster.ts) or the engine's, whichever came first. */
  artVisible: number;
  ready: number;
  /**
   * Main-thread task time of the page from its start until ready (CDP TaskDuration, read as ready
   * is seen, within a polling interval after it): what a machine with cores to spare waits for.
   */
  mainBusy: number;
  /** The same in CPU time (CDP ThreadTime): not stretched when the machine deschedules the page's main thread. */
  mainCpu: number;
}

async function open(page: Page, url: string): Promise<Timing> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 50 });
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? Number.NaN) * 1000;
  const mainBusy = metric('TaskDuration');
  const mainCpu = metric('ThreadTime');
  await cdp.detach();
  const timing = await page.evaluate(() => {
    const w = window as unknown as { __bench: BenchProbe; __map?: { firstTileAt?: () => number | null; posterAt?: () => number | null } };
    const firstTile = w.__map?.firstTileAt?.() ?? Number.NaN;
    const poster = w.__map?.posterAt?.() ?? null;
    return { ready: w.__bench.readyAt ?? Number.NaN, firstTile, artVisible: poster !== null && poster < firstTile ? poster : firstTile };
  });
  return { ...timing, mainBusy, mainCpu };
}

async function measure(browser: Browser, url: string): Promise<{ cold: Timing; warm: Timing }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript({ content: probeScript() });
    const first = await context.newPage();
    const cold = await open(first, url);
    await first.close();
    const warm = await open(await context.newPage(), url);
    return { cold, warm };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const servers: Record<'A' | 'B', RunningServer | undefined> = { A: undefined, B: undefined };
  let browser: Browser | undefined;
  try {
    for (const name of ['A', 'B'] as const) {
      servers[name] = await startServer({
        repoRoot: roots[name],
        dataDir: freshDataDir(`raidmap-ab-${name}-`),
        env: { SEED_MAPS: 'customs', MARKERS_PER_MAP: String(markers), DIST_DIR: resolve(builds[name]!), ...(args.tiles ? { TILES_DIR: resolve(args.tiles) } : {}) },
        startTimeoutMs: 600_000,
        tilesTimeoutMs: 600_000,
      });
    }
    browser = await launchChromium();
    const results: Record<'A' | 'B', { cold: Timing; warm: Timing }[]> = { A: [], B: [] };
    // One unmeasured turn each: the servers' caches (lists, deep tiles) warm up as in the benchmark.
    for (const name of ['A', 'B'] as const) await measure(browser, `${servers[name]!.baseUrl}/map/customs${searches[name]}`);
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const r = await measure(browser, `${servers[name]!.baseUrl}/map/customs${searches[name]}`);
        results[name].push(r);
        console.log(`run ${i + 1} ${name}: cold: tiles visible ${r.cold.artVisible.toFixed(0)} ms, engine's first tile ${r.cold.firstTile.toFixed(0)} ms, ready ${r.cold.ready.toFixed(0)} ms; again ${r.warm.artVisible.toFixed(0)} / ${r.warm.firstTile.toFixed(0)} / ${r.warm.ready.toFixed(0)} ms`);
      }
    }
    const row = (label: string, pick: (r: { cold: Timing; warm: Timing }) => number) => {
      const a = median(results.A.map(pick));
      const b = median(results.B.map(pick));
      console.log(`| ${label} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(b / a).toFixed(2)} |`);
    };
    console.log(`\nmedians of ${runs} runs, ${markers} markers (A: ${builds.A}${searches.A}, B: ${builds.B}${searches.B})\n| | A | B | B / A |\n|---|---:|---:|---:|`);
    row('map tiles visible, cold', (r) => r.cold.artVisible);
    row("engine's first tile, cold", (r) => r.cold.firstTile);
    row('ready, cold', (r) => r.cold.ready);
    row('main-thread task time until ready, cold', (r) => r.cold.mainBusy);
    row('main-thread CPU time until ready, cold', (r) => r.cold.mainCpu);
    row('map tiles visible, opened again', (r) => r.warm.artVisible);
    row("engine's first tile, opened again", (r) => r.warm.firstTile);
    row('ready, opened again', (r) => r.warm.ready);
    row('main-thread task time until ready, opened again', (r) => r.warm.mainBusy);
    row('main-thread CPU time until ready, opened again', (r) => r.warm.mainCpu);
  } finally {
    await browser?.close();
    await Promise.all(Object.values(servers).map((s) => s?.stop()));
  }
}

main().catch((error: Error) => {
  console.error(`A/B failed: ${error.message}`);
  process.exit(1);
});

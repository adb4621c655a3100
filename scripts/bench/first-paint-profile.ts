/**
 * `npx tsx scripts/bench/first-paint-profile.ts [--markers 10000] [--runs 3] [--dist DIR] [--tiles DIR] [--top 40] [--again] [--callers NAME[,NAME…]]`:
 * where the main thread's time goes from navigation to ready (issue 11). Opens the map cold
 * `runs` times (with `--again`: opens it, closes it and profiles its second opening in the same
 * context, with the HTTP cache warm), each in a fresh context with V8's sampling profiler running (200 µs), and prints
 * the self time per load by package and by function, mapped through the build's source maps
 * (`dist/assets/*.js.map`). The profile ends when the page reports ready (plus the few ms the
 * poll takes). `--callers NAME[,NAME…]` adds where the self time of the functions whose key contains NAME
 * comes from (their four nearest callers). docs/PERFORMANCE.md ("Third session") has what it showed.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium';
import { freshDataDir, startServer } from '../../e2e/support/server';
import { callerChains, profileReport, selfTimes, type CpuProfile, type SelfTimes } from './cpu-profile';
import { buildSourceLookup } from './source-lookup';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';

const USAGE = 'usage: first-paint-profile.ts [--markers 10000] [--runs 3] [--dist DIR] [--tiles DIR] [--top 40] [--again] [--callers NAME[,NAME…]]';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseCommandLine(
  () =>
    parseArgs({
      options: {
        markers: { type: 'string', default: '10000' },
        runs: { type: 'string', default: '3' },
        dist: { type: 'string' },
        tiles: { type: 'string' },
        top: { type: 'string', default: '40' },
        again: { type: 'boolean', default: false },
        callers: { type: 'string' },
      },
    }),
  USAGE,
);
const runs = Number(args.runs);
const top = Number(args.top);
if (!(runs > 0) || !(top > 0) || !(Number(args.markers) > 0)) {
  console.error(`--runs, --top and --markers must be positive numbers\n${USAGE}`);
  process.exit(2);
}
const distDir = resolve(args.dist ?? resolve(repoRoot, 'dist'));


async function main(): Promise<void> {
  const server = await startServer({
    repoRoot,
    dataDir: freshDataDir('raidmap-profile-'),
    env: { SEED_MAPS: 'customs', MARKERS_PER_MAP: args.markers, DIST_DIR: distDir, ...(args.tiles ? { TILES_DIR: resolve(args.tiles) } : {}) },
    startTimeoutMs: 600_000,
    tilesTimeoutMs: 600_000,
  });
  const browser = await launchChromium();
  const lookup = buildSourceLookup(distDir);
  let times: SelfTimes | undefined;
  const callerNames = args.callers ? args.callers.split(',').filter(Boolean) : [];
  const callers = callerNames.map(() => new Map<string, number>());
  try {
    for (let run = 1; run <= runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: probeScript() });
      if (args.again) {
        const first = await context.newPage();
        await first.goto(`${server.baseUrl}/map/customs`, { waitUntil: 'domcontentloaded' });
        await first.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 50 });
        await first.close();
      }
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await page.goto(`${server.baseUrl}/map/customs`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 20 });
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const readyAt = await page.evaluate(() => (window as unknown as { __bench: BenchProbe }).__bench.readyAt);
      console.log(`run ${run}: ready at ${Math.round(readyAt ?? Number.NaN)} ms`);
      times = selfTimes(profile, lookup, times);
      callerNames.forEach((name, i) => callerChains(profile, lookup, name, 4, callers[i]));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  if (!times) return;
  console.log(profileReport(times, new Map(callerNames.map((name, i) => [name, callers[i]])), runs, `self time per load, ${args.markers} markers, ${runs} ${args.again ? 'loads opened again' : 'cold loads'}`, top));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npx tsx scripts/bench/first-second-cpu.ts [--markers 10000] [--runs 5] [--dist DIR] [--tiles DIR] [--search ?QUERY]`:
 * where the CPU of a map page's first second goes, across every process and thread (issue 11).
 * Each run opens the map in a fresh context (cold) and reads, from /proc, the CPU time of every
 * thread of the benchmark's server and Chromium (renderer main thread, its workers and thread
 * pool, the GPU process with SwiftShader's threads, the network service, the browser) from just
 * before the navigation to the first animation frame with the map ready. Prints the mean per
 * process/thread, their total, the median ready, and how many cores that total kept busy: near
 * the machine's core count, the start is CPU-bound and only less work anywhere makes it sooner.
 * `--no-frame-probe` leaves out the benchmark's animation-frame probe (see below). Linux only (/proc). docs/PERFORMANCE.md ("Twelfth session") has what it showed.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';
import { threadTicks, ticksDeltaMs } from './process-cpu';
import { PROFILE_OPTIONS, profileSettings, startProfileServer } from './profile-session';

const USAGE = 'usage: first-second-cpu.ts [--markers 10000] [--runs 5] [--dist DIR] [--tiles DIR] [--search ?QUERY] [--no-frame-probe]';
const { values: args } = parseCommandLine(
  () => parseArgs({ options: { ...PROFILE_OPTIONS, runs: { type: 'string', default: '5' }, search: { type: 'string', default: '' }, 'no-frame-probe': { type: 'boolean', default: false } } }),
  USAGE,
);
/**
 * Without the benchmark's probe (an animation-frame loop from the page's first script, which
 * times every frame and finds ready at the first frame that sees it): ready is then read from
 * the page's own `raidmap:ready` mark, polled every 100 ms, so the page's frames are only its own.
 */
const frameProbe = !args['no-frame-probe'];

/** ms from navigation to the page's `raidmap:ready` mark, or null before it. */
function readyMark(): number | null {
  const mark = performance.getEntriesByName('raidmap:ready', 'mark')[0];
  return mark ? mark.startTime : null;
}
const settings = profileSettings(args, USAGE);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const server = await startProfileServer(settings, 'raidmap-first-second-cpu-');
  const browser = await launchChromium();
  const totals = new Map<string, number>();
  const readies: number[] = [];
  try {
    for (let run = 1; run <= settings.runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      if (frameProbe) await context.addInitScript({ content: probeScript() });
      const page = await context.newPage();
      // Let the new renderer settle so its own start is not counted.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = threadTicks();
      await page.goto(`${server.baseUrl}/map/customs${args.search ?? ''}`, { waitUntil: 'domcontentloaded' });
      if (frameProbe) {
        await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 20 });
      } else {
        await page.waitForFunction(readyMark, undefined, { timeout: 60_000, polling: 100 });
      }
      const used = ticksDeltaMs(before, threadTicks());
      readies.push(frameProbe ? await page.evaluate(() => (window as unknown as { __bench: BenchProbe }).__bench.readyAt ?? Number.NaN) : ((await page.evaluate(readyMark)) ?? Number.NaN));
      for (const [key, ms] of used) totals.set(key, (totals.get(key) ?? 0) + ms);
      await context.close();
      console.log(`run ${run} of ${settings.runs} done`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const rows = [...totals].map(([key, ms]) => [key, ms / settings.runs] as const).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  const ready = median(readies);
  console.log(`\n${settings.markers} markers, ${settings.runs} cold loads${args.search ? ` (${args.search})` : ''}, ${frameProbe ? 'with the frame probe' : 'without the frame probe (ready: the page\'s mark)'}: ready median ${ready.toFixed(0)} ms`);
  console.log('CPU from navigation to ready, mean per load (/proc ticks: 10 ms steps)\n| process/thread | CPU ms |\n|---|---:|');
  for (const [key, ms] of rows) if (ms >= 5) console.log(`| ${key} | ${ms.toFixed(0)} |`);
  console.log(`| **total** | **${total.toFixed(0)}** |`);
  console.log(`\ncores kept busy until ready: ${(total / ready).toFixed(2)} of ${cpus().length}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

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
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium';
import type { CpuProfile } from './cpu-profile';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';
import { PROFILE_OPTIONS, ProfileTotals, profileSettings, startProfileServer } from './profile-session';

const USAGE = 'usage: first-paint-profile.ts [--markers 10000] [--runs 3] [--dist DIR] [--tiles DIR] [--top 40] [--again] [--callers NAME[,NAME…]]';
const { values: args } = parseCommandLine(() => parseArgs({ options: { ...PROFILE_OPTIONS, again: { type: 'boolean', default: false } } }), USAGE);
const settings = profileSettings(args, USAGE);


async function main(): Promise<void> {
  const server = await startProfileServer(settings, 'raidmap-profile-');
  const browser = await launchChromium();
  const totals = new ProfileTotals(settings);
  try {
    for (let run = 1; run <= settings.runs; run += 1) {
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
      totals.add(profile);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(totals.report(`self time per load, ${args.markers} markers, ${settings.runs} ${args.again ? 'loads opened again' : 'cold loads'}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

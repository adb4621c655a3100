/**
 * `npx tsx scripts/bench/gesture-profile.ts [--markers 10000] [--runs 3] [--dist DIR] [--tiles DIR] [--top 40] [--callers NAME[,NAME…]]`:
 * where the main thread's time goes during the benchmark's pan and zoom gesture (issue 8's
 * frame target). Opens the map, waits for ready and two quiet seconds, then plays the gesture
 * of `npm run bench` (scripts/bench/gesture.ts, not awaited, as the benchmark does) with V8's
 * sampling profiler running (200 µs), and prints the self time per gesture by package and by
 * function through the build's source maps, with the engine's own p95 per frame (update,
 * render) of each run. `--callers` as in first-paint-profile.ts.
 */
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium';
import type { CpuProfile } from './cpu-profile';
import { buildGesture, gestureDuration } from './gesture';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';
import { PROFILE_OPTIONS, ProfileTotals, profileSettings, startProfileServer } from './profile-session';
import { play } from './run';

const USAGE = 'usage: gesture-profile.ts [--markers 10000] [--runs 3] [--dist DIR] [--tiles DIR] [--top 40] [--callers NAME[,NAME…]]';
const { values: args } = parseCommandLine(() => parseArgs({ options: PROFILE_OPTIONS }), USAGE);
const settings = profileSettings(args, USAGE);
const viewport = { width: 1280, height: 800 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface EngineFrames {
  updateMs?: { p95: number };
  renderMs?: { p95: number };
}

async function main(): Promise<void> {
  const server = await startProfileServer(settings, 'raidmap-gesture-profile-');
  const browser = await launchChromium();
  const totals = new ProfileTotals(settings);
  try {
    for (let run = 1; run <= settings.runs; run += 1) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      await context.addInitScript({ content: probeScript() });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await page.goto(`${server.baseUrl}/map/customs`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 100 });
      await sleep(2000);
      const events = buildGesture(viewport);
      await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: events[0].x, y: events[0].y, button: 'none', buttons: 0 });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      const { failures } = await play(cdp, events, Date.now() + 50);
      if (failures.length > 0) throw new Error(`input dispatch failed: ${failures.slice(0, 3).join('; ')}`);
      await sleep(gestureDuration(events) + 500);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const engine = await page.evaluate(() => {
        const s = (window as unknown as { __map: { stats: () => EngineFrames } }).__map.stats();
        return { update: s.updateMs?.p95 ?? Number.NaN, render: s.renderMs?.p95 ?? Number.NaN };
      });
      console.log(`run ${run}: engine p95 per frame: update ${engine.update.toFixed(2)} ms, render ${engine.render.toFixed(2)} ms (the last 600 frames)`);
      totals.add(profile);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(totals.report(`self time per gesture, ${args.markers} markers, ${settings.runs} runs`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npx tsx scripts/bench/first-second-timeline.ts [--markers 10000] [--runs 5] [--opens 2] [--dist DIR] [--tiles DIR] [--search ?QUERY]`:
 * when each step of a map page's first second happens (issue 11), cold and opened again. Each
 * run opens the map in a fresh context, then again in a new page of the same context (HTTP cache
 * warm; `--opens 4` opens it four times in all: V8 consumes a script's code cache from its
 * third load on, so the later opens show what compiling costs a returning player), and reads the page's own timings: the HTML, the main script and stylesheets, the poster's
 * stylesheet, the engine chunk, the compact list, the worker and the icon atlas (Resource
 * Timing), first paint and first contentful paint (Paint Timing), DOMContentLoaded, and the
 * map's User Timing marks (`raidmap:*`, src/ui/map/startupMarks.ts). Prints the median of each,
 * in ms from navigation, in the order they happen cold. `--search ?render=worker` opens the map
 * drawn in the render worker, whose steps show as `mark render-*`. docs/PERFORMANCE.md ("Seventh session")
 * has what it showed.
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/chromium';
import { parseCommandLine } from './options';
import { probeScript, type BenchProbe } from './probe';
import { PROFILE_OPTIONS, profileSettings, startProfileServer } from './profile-session';

const USAGE = 'usage: first-second-timeline.ts [--markers 10000] [--runs 5] [--opens 2] [--dist DIR] [--tiles DIR] [--search ?QUERY]';
const { values: args } = parseCommandLine(
  () => parseArgs({ options: { ...PROFILE_OPTIONS, runs: { type: 'string', default: '5' }, opens: { type: 'string', default: '2' }, search: { type: 'string', default: '' } } }),
  USAGE,
);
const settings = profileSettings(args, USAGE);
const opens = Number(args.opens);
if (!Number.isInteger(opens) || opens < 1) {
  console.error(`--opens must be a whole number of 1 or more\n${USAGE}`);
  process.exit(2);
}
/** Each open's column: the first is cold, the rest share the context's HTTP cache. */
const OPEN_NAMES = ['cold', 'opened again', 'third open', 'fourth open'];
const openName = (index: number) => OPEN_NAMES[index] ?? `open ${index + 1}`;

/** Resources by what they are, from their URL (the first of each kind). */
const RESOURCES: [name: string, pattern: RegExp][] = [
  ['main script', /\/assets\/index-[\w-]+\.js$/],
  ['main stylesheet', /\/assets\/index-[\w-]+\.css$/],
  ['poster stylesheet', /\/poster\.css$/],
  ['engine chunk', /\/assets\/(worker-)?engine-[\w-]{8}\.js$/],
  ['markers worker', /markers\.worker-[\w-]+\.js$/],
  ['render worker script', /render\.worker-[\w-]+\.js$/],
  ['compact list', /\/markers\/compact\?/],
  ['icon atlas', /\/icons\/atlas/],
];

/** The page's timings, ms from navigation. */
async function timings(page: Page): Promise<Record<string, number>> {
  const patterns = RESOURCES.map(([name, pattern]) => [name, pattern.source] as const);
  return page.evaluate((sources) => {
    const out: Record<string, number> = {};
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    out['HTML arrived'] = nav.responseEnd;
    out['DOMContentLoaded'] = nav.domContentLoadedEventEnd;
    for (const entry of performance.getEntriesByType('paint')) out[entry.name] = entry.startTime;
    for (const mark of performance.getEntriesByType('mark')) if (mark.name.startsWith('raidmap:')) out[`mark ${mark.name.slice(8)}`] = mark.startTime;
    // The benchmark's own ready: the first animation frame that sees the map ready (probe.ts).
    const bench = (window as unknown as { __bench?: { readyAt: number | null } }).__bench;
    if (bench?.readyAt != null) out['bench ready (probe frame)'] = bench.readyAt;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    for (const [name, source] of sources) {
      const pattern = new RegExp(source);
      const entry = resources.find((r) => pattern.test(r.name));
      if (entry) out[`${name} arrived`] = entry.responseEnd;
    }
    return out;
  }, patterns);
}

async function openUntilReady(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => (window as unknown as { __bench?: BenchProbe }).__bench?.readyAt != null, undefined, { timeout: 60_000, polling: 50 });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main(): Promise<void> {
  const server = await startProfileServer(settings, 'raidmap-timeline-');
  const browser = await launchChromium();
  const byOpen: Record<string, number[]>[] = Array.from({ length: opens }, () => ({}));
  const add = (into: Record<string, number[]>, values: Record<string, number>) => {
    for (const [name, value] of Object.entries(values)) (into[name] ??= []).push(value);
  };
  try {
    for (let run = 1; run <= settings.runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: probeScript() });
      for (const into of byOpen) {
        const page = await context.newPage();
        await openUntilReady(page, `${server.baseUrl}/map/customs${args.search ?? ''}`);
        add(into, await timings(page));
        await page.close();
      }
      await context.close();
      console.log(`run ${run} of ${settings.runs} done`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const [cold] = byOpen;
  const names = Object.keys(cold).sort((a, b) => median(cold[a]) - median(cold[b]));
  console.log(`\nmedians of ${settings.runs} runs, ${settings.markers} markers, ms from navigation`);
  console.log(`| event | ${byOpen.map((_, i) => openName(i)).join(' | ')} |\n|---|${byOpen.map(() => '---:|').join('')}`);
  for (const name of names) console.log(`| ${name} | ${byOpen.map((open) => (open[name] ? median(open[name]).toFixed(0) : '–')).join(' | ')} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

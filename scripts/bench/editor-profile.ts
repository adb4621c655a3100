/**
 * `npx tsx scripts/bench/editor-profile.ts [--runs 1] [--actions 10] [--dist DIR] [--tiles DIR] [--top 30] [--callers NAME[,NAME…]] [--search ?render=worker]`:
 * where the main thread's time goes while an admin edits (issue 8's per-action target). Runs the
 * editor benchmark's browser part (scripts/bench/editor-run.ts: place, move, delete on a map of
 * 10,000 markers, as the demo admin) with V8's sampling profiler on during each phase, and prints
 * per phase the self time per action by package and by function through the build's source
 * maps. Native work (style, layout, paint, commit) shows as `(program)`; with `--trace` a Chrome
 * trace of each phase runs instead, and the renderer main thread's self time per trace event
 * (EventDispatch, FunctionCall, UpdateLayoutTree, Layout, Paint, Commit…) is printed per action;
 * `--save DIR` writes each phase's trace there (DevTools' Performance panel opens it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../e2e/support/chromium';
import type { CpuProfile } from './cpu-profile';
import { measureEditorRun, type EditorPhase } from './editor-run';
import { parseCommandLine } from './options';
import { PROFILE_OPTIONS, ProfileTotals, profileSettings, startProfileServer } from './profile-session';
import { resolve } from 'node:path';
import { EDITOR_MARKERS } from './editor';
import { busiestThread, selfTimeByName, type TraceEvent } from './trace-self-time';
import type { CDPSession } from 'playwright-core';

const USAGE = 'usage: editor-profile.ts [--runs 1] [--actions 10] [--dist DIR] [--tiles DIR] [--top 30] [--callers NAME[,NAME…]] [--search ?render=worker] [--trace [--save DIR]]';
const { values: args } = parseCommandLine(
  () =>
    parseArgs({
      options: {
        ...PROFILE_OPTIONS,
        markers: { type: 'string', default: String(EDITOR_MARKERS) },
        runs: { type: 'string', default: '1' },
        actions: { type: 'string', default: '10' },
        top: { type: 'string', default: '30' },
        search: { type: 'string', default: '' },
        trace: { type: 'boolean', default: false },
        save: { type: 'string' },
      },
    }),
  USAGE,
);
const settings = profileSettings(args, USAGE);
const actions = Number(args.actions);
if (!(actions > 0)) {
  console.error(`--actions must be a positive number\n${USAGE}`);
  process.exit(2);
}
const PHASES: EditorPhase[] = ['place', 'move', 'delete'];

const traced = new Map(PHASES.map((phase) => [phase, new Map<string, number>()]));
let traceEvents: TraceEvent[] = [];

/** Traces a phase: collects its events, then adds the main thread's self time per event name. */
async function tracePhase(phase: EditorPhase, event: 'start' | 'end', cdp: CDPSession): Promise<void> {
  const into = traced.get(phase);
  if (!into) return;
  const session = cdp as unknown as { on(name: string, listener: (e: { value: TraceEvent[] }) => void): void; once(name: string, listener: () => void): void };
  if (event === 'start') {
    traceEvents = [];
    if (!tracing) {
      session.on('Tracing.dataCollected', (e) => traceEvents.push(...e.value));
      tracing = true;
    }
    // A saved trace also says what invalidated style and layout, with the script's stack (slower).
    const extra = args.save ? ',disabled-by-default-devtools.timeline.invalidationTracking,disabled-by-default-devtools.timeline.stack' : '';
    await cdp.send('Tracing.start', { categories: `devtools.timeline,disabled-by-default-devtools.timeline,toplevel,blink,cc${extra}`, transferMode: 'ReportEvents' } as never);
    return;
  }
  const done = new Promise<void>((r) => session.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.end');
  await done;
  if (args.save) {
    mkdirSync(args.save, { recursive: true });
    writeFileSync(resolve(args.save, `editor-${phase}-${Date.now()}.json`), JSON.stringify({ traceEvents }));
  }
  const thread = busiestThread(traceEvents);
  if (!thread) throw new Error('the trace has no renderer main thread');
  for (const [name, ms] of selfTimeByName(traceEvents, thread)) into.set(name, (into.get(name) ?? 0) + ms);
}
let tracing = false;

async function main(): Promise<void> {
  const server = await startProfileServer(settings, 'raidmap-editor-profile-', { NODE_ENV: 'development', DEMO_ACCOUNTS: '1' });
  const browser = await launchChromium();
  const totals = new Map(PHASES.map((phase) => [phase, new ProfileTotals({ ...settings, runs: settings.runs * actions })]));
  try {
    for (let run = 1; run <= settings.runs; run += 1) {
      const result = await measureEditorRun({
        browser,
        baseUrl: server.baseUrl,
        mapId: 'customs',
        run,
        actions,
        viewport: { width: 1280, height: 800 },
        idleWindows: 2,
        search: args.search,
        log: (line) => console.log(`run ${run}: ${line}`),
        onPhase: async (phase, event, cdp) => {
          if (args.trace) return tracePhase(phase, event, cdp);
          const into = totals.get(phase);
          if (!into) return;
          if (event === 'start') {
            await cdp.send('Profiler.enable');
            await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
            await cdp.send('Profiler.start');
          } else {
            const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
            into.add(profile);
          }
        },
      });
      const fmt = (v: number) => v.toFixed(1);
      console.log(
        `run ${run}: main-thread ms per action p50: place ${fmt(result.place.taskP50)}, move ${fmt(result.move.taskP50)}, delete ${fmt(result.delete.taskP50)} ` +
          `(CPU ${fmt(result.place.cpuP50)}, ${fmt(result.move.cpuP50)}, ${fmt(result.delete.cpuP50)}; script ${fmt(result.place.scriptP50)}, ${fmt(result.move.scriptP50)}, ${fmt(result.delete.scriptP50)})`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  if (args.trace) {
    for (const phase of PHASES) {
      const self = traced.get(phase)!;
      const per = settings.runs * actions;
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      console.log(`\nrenderer main thread, self time per ${phase} by trace event (${(total / per).toFixed(1)} ms in all, the phase's waits included):`);
      for (const [name, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, settings.top)) console.log(`  ${(ms / per).toFixed(2).padStart(8)}  ${name}`);
    }
    return;
  }
  for (const phase of PHASES) console.log(totals.get(phase)!.report(`self time per ${phase} (the whole phase, its waits included), ${settings.runs} run(s) of ${actions}${args.search ? `, ${args.search}` : ''}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

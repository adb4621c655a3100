/** Formats benchmark summaries as a plain-text table (console) and as Markdown (docs). */
import type { Summary, TargetCheck } from './stats';

interface Column {
  title: string;
  value: (s: Summary) => string;
}

const n = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

export const COLUMNS: Column[] = [
  { title: 'markers', value: (s) => s.markers.toLocaleString('en-US') },
  { title: 'throttle', value: (s) => `${s.throttle}×` },
  { title: 'runs', value: (s) => String(s.runs) },
  { title: 'fps', value: (s) => n(s.fps) },
  { title: 'frame p50 ms', value: (s) => n(s.frameP50) },
  { title: 'frame p95 ms', value: (s) => n(s.frameP95) },
  { title: 'frame p99 ms', value: (s) => n(s.frameP99) },
  { title: 'frames >50 ms', value: (s) => n(s.framesOver50, 0) },
  { title: 'input lag ms', value: (s) => n(s.inputLagMs) },
  { title: 'press lag max ms', value: (s) => n(s.maxPressLagMs) },
  { title: 'main busy %', value: (s) => n(s.busyPct) },
  { title: 'long tasks', value: (s) => n(s.longTasks, 0) },
  { title: 'longest task ms', value: (s) => n(s.longestTaskMs, 0) },
  { title: 'engine p50 ms', value: (s) => n(s.engineP50, 2) },
  { title: 'engine p95 ms', value: (s) => n(s.engineP95, 2) },
  { title: 'update p95 ms', value: (s) => n(s.engineUpdateP95, 2) },
  { title: 'render p95 ms', value: (s) => n(s.engineRenderP95, 2) },
  { title: 'ready ms', value: (s) => n(s.readyMs, 0) },
  { title: 'tiles visible ms', value: (s) => n(s.artVisibleMs, 0) },
  { title: 'engine tile ms', value: (s) => n(s.firstTileMs, 0) },
  { title: 'reopen ready ms', value: (s) => n(s.reopenReadyMs, 0) },
  { title: 'reopen visible ms', value: (s) => n(s.reopenArtVisibleMs, 0) },
  { title: 'reopen engine tile ms', value: (s) => n(s.reopenFirstTileMs, 0) },
  { title: 'heap MB', value: (s) => n(s.heapMB) },
  { title: 'GPU proc CPU %', value: (s) => n(s.gpuCpuPct, 0) },
  { title: 'renderer CPU %', value: (s) => n(s.rendererCpuPct, 0) },
  { title: 'tiles', value: (s) => n(s.tileRequests, 0) },
  { title: 'tile p95 ms', value: (s) => n(s.tileP95Ms, 0) },
];

export function textTable(summaries: readonly Summary[]): string {
  const rows = [COLUMNS.map((c) => c.title), ...summaries.map((s) => COLUMNS.map((c) => c.value(s)))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padStart(widths[i])).join('  ')).join('\n');
}

export function markdownTable(summaries: readonly Summary[]): string {
  const head = `| ${COLUMNS.map((c) => c.title).join(' | ')} |`;
  const rule = `|${COLUMNS.map(() => '---:').join('|')}|`;
  const body = summaries.map((s) => `| ${COLUMNS.map((c) => c.value(s)).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

export function markdownTargets(checks: readonly TargetCheck[]): string {
  const mark = (met: boolean | null) => (met === null ? 'not measured' : met ? '**met**' : '**missed**');
  return ['| target | measured | result |', '|---|---:|---|', ...checks.map((c) => `| ${c.target} | ${c.measured} | ${mark(c.met)} |`)].join('\n');
}

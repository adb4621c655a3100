/** The admin-editor figures as plain-text tables (console) and Markdown (docs, bench-results/). */
import type { ActionSummary, EditorSummary, LatencySummary } from './editor-stats';

const n = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');

type Table = { head: string[]; rows: string[][] };

const ACTION_LABELS: Array<[keyof Pick<NonNullable<EditorSummary['browser']>, 'place' | 'move' | 'delete' | 'open'>, string]> = [
  ['place', 'place (marker tool click)'],
  ['move', 'move (drag in move state)'],
  ['delete', 'delete (popup Delete, confirm accepted)'],
  ['open', 'open popup (click a marker; not a target)'],
];

function actionTable(summary: EditorSummary): Table | null {
  const b = summary.browser;
  if (!b) return null;
  const row = (label: string, a: ActionSummary) => [
    label, n(a.n, 0), n(a.taskP50, 1), n(a.taskP95, 1), n(a.taskMean, 1), n(a.taskMax, 0), n(a.cpuP50, 1), n(a.cpuP95, 1), n(a.scriptP50, 1), n(a.styleLayoutP50, 1),
    n(a.rawTaskP50, 1), n(a.wallP50, 0), n(a.saveP50, 0), n(a.saveP95, 0),
  ];
  return {
    head: [
      'action', 'n', 'main ms p50', 'main ms p95', 'main ms mean', 'main ms max', 'CPU ms p50', 'CPU ms p95', 'script ms p50', 'style+layout ms p50',
      'window task ms p50', 'window ms', 'saved ms p50', 'saved ms p95',
    ],
    rows: ACTION_LABELS.map(([key, label]) => row(label, b[key])),
  };
}

function framesTable(summary: EditorSummary): Table | null {
  const b = summary.browser;
  if (!b) return null;
  const f = b.frames;
  return {
    head: [
      'zoom', 'markers drawn', 'editing s', 'fps', 'frame p50 ms', 'frame p95 ms', 'frames >50 ms', 'longest frame ms', 'long tasks', 'longest task ms',
      'idle main ms/s', 'idle CPU ms/s', 'confirm wait ms p50',
    ],
    rows: [
      [
        n(b.zoom, 2), n(b.markersDrawn, 0), n(f.editingMs / 1000, 1), n(f.fps), n(f.frameP50), n(f.frameP95), n(f.framesOver50, 0), n(f.longestFrameMs, 0), n(f.longTasks, 0),
        n(f.longestTaskMs, 0), n(b.idleTaskMsPerS, 1), n(b.idleCpuMsPerS, 1), n(b.confirmP50, 1),
      ],
    ],
  };
}

function serverTable(summary: EditorSummary): Table | null {
  const s = summary.server;
  if (!s) return null;
  const row = (mode: string, op: string, l: LatencySummary) => [mode, op, n(l.n, 0), n(l.p50, 2), n(l.p95, 2), n(l.p99, 2), n(l.max, 1), n(l.mean, 2)];
  const c = `${n(s.concurrent.clients, 0)} clients`;
  return {
    head: ['clients', 'request', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'mean ms'],
    rows: [
      row('1 (sequential)', 'add', s.sequential.add),
      row('1 (sequential)', 'update (with version)', s.sequential.update),
      row('1 (sequential)', 'delete (with version)', s.sequential.remove),
      row(c, 'add', s.concurrent.add),
      row(c, 'update (with version)', s.concurrent.update),
      row(c, 'delete (with version)', s.concurrent.remove),
    ],
  };
}

function text(table: Table): string {
  const rows = [table.head, ...table.rows];
  const widths = table.head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')).join('\n');
}

function markdown(table: Table): string {
  return [
    `| ${table.head.join(' | ')} |`,
    `|${table.head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...table.rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function tables(summary: EditorSummary): Table[] {
  return [actionTable(summary), framesTable(summary), serverTable(summary)].filter((t): t is Table => t !== null);
}

export function editorTextTables(summary: EditorSummary): string {
  const out = tables(summary).map(text);
  if (summary.server) out.push(`server, ${n(summary.server.concurrent.clients, 0)} concurrent clients: ${n(summary.server.concurrent.requestsPerS, 0)} requests/s`);
  return out.join('\n\n');
}

export function editorMarkdownTables(summary: EditorSummary): string {
  const out = tables(summary).map(markdown);
  if (summary.server) out.push(`${n(summary.server.concurrent.clients, 0)} concurrent clients together: ${n(summary.server.concurrent.requestsPerS, 0)} requests/s.`);
  return out.join('\n\n');
}

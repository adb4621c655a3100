/**
 * CPU time of this benchmark's Chromium processes, read from /proc (Linux): the GPU process
 * (WebGL runs there, on SwiftShader) and the renderers. Only processes descended from this
 * Node process count, so other browsers on the machine do not. Elsewhere the figures are NaN.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in ticks. */
  ticks: number;
}

/** Parses /proc/<pid>/stat text; the command may hold spaces and parentheses. */
export function parseStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is state (field 3); ppid is field 4, utime 14, stime 15.
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![pid, ppid, utime, stime].every(Number.isFinite)) return null;
  return { pid, ppid, ticks: utime + stime };
}

export type ChromiumRole = 'gpu' | 'renderer';

interface Snapshot {
  ticks: Record<ChromiumRole, number>;
  at: number;
}

function readProcesses(): { stat: ProcStat; cmdline: string }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: { stat: ProcStat; cmdline: string }[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (!stat) continue;
      out.push({ stat, cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** CPU ticks of this process tree's Chromium GPU and renderer processes. */
export function chromiumTicks(rootPid = process.pid): Record<ChromiumRole, number> | null {
  const all = readProcesses();
  if (all.length === 0) return null;
  const parent = new Map(all.map((p) => [p.stat.pid, p.stat.ppid]));
  const descends = (pid: number) => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops += 1) {
      if (p === rootPid) return true;
    }
    return false;
  };
  const ticks: Record<ChromiumRole, number> = { gpu: 0, renderer: 0 };
  for (const p of all) {
    const role: ChromiumRole | null = p.cmdline.includes('--type=gpu-process') ? 'gpu' : p.cmdline.includes('--type=renderer') ? 'renderer' : null;
    if (role && descends(p.stat.pid)) ticks[role] += p.stat.ticks;
  }
  return ticks;
}

export function snapshot(): Snapshot | null {
  const ticks = chromiumTicks();
  return ticks ? { ticks, at: performance.now() } : null;
}

/** CPU use between two snapshots, as % of one core (can pass 100 with several threads). */
export function cpuPercent(before: Snapshot | null, after: Snapshot | null, role: ChromiumRole): number {
  if (!before || !after || after.at <= before.at) return Number.NaN;
  const seconds = (after.ticks[role] - before.ticks[role]) / TICKS_PER_SECOND;
  return (seconds / ((after.at - before.at) / 1000)) * 100;
}

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
  /** The command name (`comm`): a thread's name in /proc/<pid>/task/<tid>/stat. */
  name: string;
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
  return { pid, ppid, name: text.slice(open + 1, close), ticks: utime + stime };
}

export type ChromiumRole = 'gpu' | 'renderer';

/** What a process under the benchmark is, from its command line. */
export function processRole(cmdline: string): string {
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
  if (type === 'gpu-process') return 'gpu';
  if (type === 'utility') return cmdline.includes('network.mojom') ? 'network' : 'utility';
  if (type) return type;
  if (/server\/main\.ts/.test(cmdline)) return 'server';
  if (/chrom/i.test(cmdline)) return 'browser';
  return 'other';
}

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

/**
 * CPU ticks of every thread under `rootPid` (this benchmark's server and Chromium), summed by
 * `role/thread name`: Chromium names its threads (`CrRendererMain` shows as the process's name,
 * `DedicatedWorker thread`, `ThreadPoolForeg`, `VizCompositorTh`…); numbered names are summed
 * as one (`Thread<01>` and `Thread<02>` as `Thread<#>`). Empty where /proc cannot be read.
 */
export function threadTicks(rootPid = process.pid): Map<string, number> {
  const all = readProcesses();
  const parent = new Map(all.map((p) => [p.stat.pid, p.stat.ppid]));
  const under = (pid: number) => {
    for (let p: number | undefined = parent.get(pid), hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops += 1) {
      if (p === rootPid) return true;
    }
    return false;
  };
  const out = new Map<string, number>();
  for (const p of all) {
    if (!under(p.stat.pid)) continue;
    const role = processRole(p.cmdline);
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${p.stat.pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = parseStat(readFileSync(`/proc/${p.stat.pid}/task/${tid}/stat`, 'utf8'));
        if (!stat) continue;
        const key = `${role}/${threadGroupName(stat.name)}`;
        out.set(key, (out.get(key) ?? 0) + stat.ticks);
      } catch {
        // the thread ended while we looked
      }
    }
  }
  return out;
}

/** A thread's name with its number folded (`Thread<01>` → `Thread<#>`, `worker12` → `worker#`). */
export function threadGroupName(name: string): string {
  return name.replace(/<\d+>$/, '<#>').replace(/\d+$/, '#');
}

/** CPU ms per key between two `threadTicks` readings (keys that used none are left out). */
export function ticksDeltaMs(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, ticks] of after) {
    const ms = ((ticks - (before.get(key) ?? 0)) * 1000) / TICKS_PER_SECOND;
    if (ms > 0) out.set(key, ms);
  }
  return out;
}

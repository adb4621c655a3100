/**
 * Self time of a V8 CPU profile (CDP `Profiler.stop`), by the original source: each sample's
 * frame is mapped through a source map when one is given for its script, then summed by
 * function (`name @ file:line`) and by package (`nm/<package>`) or repository file. Idle samples
 * are left out; native work shows as `(program)` and `(garbage collector)`. Pure: the runner
 * (first-paint-profile.ts) reads the maps.
 */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  /** The ids of the nodes this one called (CDP gives them; the callers breakdown needs them). */
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

/** The original place of a generated position, or null where no map knows it. */
export type SourceLookup = (url: string, line: number, column: number) => { source: string; line: number; name: string | null } | null;

export interface SelfTimes {
  byFunction: Map<string, number>;
  byPackage: Map<string, number>;
  /** Milliseconds sampled, idle left out. */
  totalMs: number;
}

/** `…/node_modules/pixi.js/lib/x.mjs` → `nm/pixi.js/lib/x.mjs`; a repository path loses its leading `../`. */
export function shortSource(source: string): string {
  const inModules = source.lastIndexOf('node_modules/');
  if (inModules >= 0) return `nm/${source.slice(inModules + 'node_modules/'.length)}`;
  return source.replace(/^(\.\.\/)+/, '').replace(/^.*?\/(src|workers|server)\//, '$1/');
}

/** The package of a short source (`nm/@pixi/colord/…` → `nm/@pixi/colord`), or the file itself. */
export function packageOf(file: string): string {
  if (!file.startsWith('nm/')) return file;
  const parts = file.split('/');
  return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
}

/** A frame's function key (`name @ file:line` through the source map) and its file. */
function frameKey(node: ProfileNode, lookup: SourceLookup): { key: string; file: string } {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const original = url ? lookup(url, lineNumber + 1, columnNumber) : null;
  if (!original) return { key: functionName || '(anonymous)', file: url ? url.slice(url.lastIndexOf('/') + 1) : functionName };
  const file = shortSource(original.source);
  return { key: `${original.name ?? (functionName || '(anonymous)')} @ ${file}:${original.line}`, file };
}

export function selfTimes(profile: CpuProfile, lookup: SourceLookup, into?: SelfTimes): SelfTimes {
  const out = into ?? { byFunction: new Map(), byPackage: new Map(), totalMs: 0 };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  for (let k = 0; k < profile.samples.length; k++) {
    const node = nodes.get(profile.samples[k]);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const ms = (profile.timeDeltas[k] ?? 0) / 1000;
    const { key, file } = frameKey(node, lookup);
    out.byFunction.set(key, (out.byFunction.get(key) ?? 0) + ms);
    const pkg = packageOf(file);
    out.byPackage.set(pkg, (out.byPackage.get(pkg) ?? 0) + ms);
    out.totalMs += ms;
  }
  return out;
}

/**
 * Where a function's self time comes from: the samples whose own frame's key contains `match`,
 * summed by their `depth` nearest callers (`caller ← caller's caller ← …`). Adds to `into`.
 */
export function callerChains(profile: CpuProfile, lookup: SourceLookup, match: string, depth = 4, into = new Map<string, number>()): Map<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  for (let k = 0; k < profile.samples.length; k++) {
    const node = nodes.get(profile.samples[k]);
    if (!node || !frameKey(node, lookup).key.includes(match)) continue;
    const chain: string[] = [];
    for (let id = parent.get(node.id); id !== undefined && chain.length < depth; id = parent.get(id)) {
      const caller = nodes.get(id);
      if (!caller || caller.callFrame.functionName === '(root)') break;
      chain.push(frameKey(caller, lookup).key);
    }
    const key = chain.join(' ← ') || '(no caller)';
    into.set(key, (into.get(key) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000);
  }
  return into;
}

/** The `count` largest entries, largest first. */
export function largest(times: Map<string, number>, count: number): [string, number][] {
  return [...times.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/**
 * The report both profile scripts print: self time by package and by function, then the callers
 * of each name asked for, all divided by `per` (the runs or loads profiled).
 */
export function profileReport(times: SelfTimes, callers: ReadonlyMap<string, Map<string, number>>, per: number, title: string, top: number): string {
  const each = (ms: number) => (ms / per).toFixed(1).padStart(8);
  const lines = [`\n${title} (${each(times.totalMs).trim()} ms sampled, idle left out)`, '\nby package or file:'];
  for (const [name, ms] of largest(times.byPackage, top)) lines.push(`${each(ms)}  ${name}`);
  lines.push('\nby function:');
  for (const [name, ms] of largest(times.byFunction, top)) lines.push(`${each(ms)}  ${name}`);
  for (const [name, chains] of callers) {
    lines.push(`\ncallers of "${name}":`);
    for (const [chain, ms] of largest(chains, 12)) lines.push(`${each(ms)}  ${chain}`);
  }
  return lines.join('\n');
}

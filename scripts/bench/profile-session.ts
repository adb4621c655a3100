/**
 * What the two CPU-profile scripts (first-paint-profile.ts, gesture-profile.ts) share: their
 * common options, the seeded server on a build, and the totals of the profiles they take
 * (self times and callers, mapped through the build's source maps) with their report.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDataDir, startServer, type RunningServer } from '../../e2e/support/server';
import { callerChains, profileReport, selfTimes, type CpuProfile, type SelfTimes, type SourceLookup } from './cpu-profile';
import { buildSourceLookup } from './source-lookup';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The options both scripts take (parseArgs form). */
export const PROFILE_OPTIONS = {
  markers: { type: 'string', default: '10000' },
  runs: { type: 'string', default: '3' },
  dist: { type: 'string' },
  tiles: { type: 'string' },
  top: { type: 'string', default: '40' },
  callers: { type: 'string' },
} as const;

export interface ProfileArgs {
  markers: string;
  runs: string;
  dist?: string;
  tiles?: string;
  top: string;
  callers?: string;
}

export interface ProfileSettings {
  runs: number;
  top: number;
  markers: string;
  distDir: string;
  tilesDir?: string;
  callerNames: string[];
}

/** The common options checked; exits with the usage where a number is not positive. */
export function profileSettings(args: ProfileArgs, usage: string): ProfileSettings {
  const runs = Number(args.runs);
  const top = Number(args.top);
  if (!(runs > 0) || !(top > 0) || !(Number(args.markers) > 0)) {
    console.error(`--runs, --top and --markers must be positive numbers\n${usage}`);
    process.exit(2);
  }
  return {
    runs,
    top,
    markers: args.markers,
    distDir: resolve(args.dist ?? resolve(repoRoot, 'dist')),
    ...(args.tiles ? { tilesDir: resolve(args.tiles) } : {}),
    callerNames: args.callers ? args.callers.split(',').filter(Boolean) : [],
  };
}

/** A server on the build with `markers` sample markers on customs, as the benchmark seeds it; `env` adds to its environment (the demo accounts). */
export function startProfileServer(settings: ProfileSettings, prefix: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({
    repoRoot,
    dataDir: freshDataDir(prefix),
    env: { SEED_MAPS: 'customs', MARKERS_PER_MAP: settings.markers, DIST_DIR: settings.distDir, ...(settings.tilesDir ? { TILES_DIR: settings.tilesDir } : {}), ...env },
    startTimeoutMs: 600_000,
    tilesTimeoutMs: 600_000,
  });
}

/** Self times and callers summed over the profiles added. */
export class ProfileTotals {
  private times: SelfTimes | undefined;
  private readonly callers: Map<string, Map<string, number>>;
  private readonly lookup: SourceLookup;

  constructor(private readonly settings: ProfileSettings) {
    this.lookup = buildSourceLookup(settings.distDir);
    this.callers = new Map(settings.callerNames.map((name) => [name, new Map<string, number>()]));
  }

  add(profile: CpuProfile): void {
    this.times = selfTimes(profile, this.lookup, this.times);
    for (const [name, chains] of this.callers) callerChains(profile, this.lookup, name, 4, chains);
  }

  /** The report per run (empty before any profile). */
  report(title: string): string {
    return this.times ? profileReport(this.times, this.callers, this.settings.runs, title, this.settings.top) : '';
  }
}

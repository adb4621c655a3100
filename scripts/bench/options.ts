/** Command-line options of `npm run bench` (pure parsing, with clear errors for bad input). */

export interface BenchOptions {
  markers: number[];
  runs: number;
  throttle: number[];
  map: string;
  outDir: string;
  /** A tile folder to use and keep (reused between bench runs); a fresh temp one when unset. */
  tilesDir?: string;
  /**
   * Which parts run: the engine gesture runs, the admin-editor runs (scripts/bench/editor.ts),
   * the live position feed (scripts/bench/pilot.ts); all three when no part is named.
   */
  parts: BenchParts;
  /** Editor: markers placed, moved and deleted per run (each action timed). */
  actions: number;
  /** Editor: server requests of each kind (add, update, delete) per run, sequential and spread over the concurrent clients. */
  requests: number;
  /** Editor: concurrent clients in the server round-trip test. */
  clients: number;
  /** Pilot: screenshots written, each timed until its position is drawn on the subscribed page. */
  pilotUpdates: number;
  /** Pilot: pages (server-sent-event streams) subscribed to one code in the fan-out run. */
  pilotClients: number;
  /** Pilot: how long the fan-out run publishes a position every 2 s. */
  pilotSeconds: number;
  /** Where the pages draw the map: the render worker (the app's default, docs/ENGINE-WORKER.md) or the main thread (`?render=main`). */
  render: 'main' | 'worker';
}

export const BENCH_PARTS = ['engine', 'editor', 'pilot'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];
export type BenchParts = Record<BenchPart, boolean>;

export const DEFAULT_OPTIONS: BenchOptions = {
  markers: [1_000, 10_000, 100_000],
  runs: 3,
  throttle: [1, 4],
  map: 'customs',
  outDir: 'bench-results',
  parts: { engine: true, editor: true, pilot: true },
  pilotUpdates: 40,
  pilotClients: 1000,
  pilotSeconds: 30,
  actions: 30,
  requests: 300,
  clients: 4,
  render: 'worker',
};

export const USAGE = `usage: npm run bench -- [--markers 1000,10000,100000] [--runs 3] [--throttle 1,4] [--map customs] [--out bench-results] [--tiles-dir /path/kept/between/runs]
       [--engine] [--editor] [--pilot] [--actions 30] [--requests 300] [--clients 4]
       [--pilot-updates 40] [--pilot-clients 1000] [--pilot-seconds 30] [--render main|worker]
  --engine   the engine gesture runs; --editor   the admin-editor runs (10,000 markers);
  --pilot    the live position feed (screenshot → drawn latency, fan-out to many pages);
  name one or more parts; none named runs all three;
  --render   where the engine and editor pages draw the map (worker: the app's default; main: ?render=main)`;

function positiveList(flag: string, value: string, integer: boolean): number[] {
  const parts = value.split(',').map((p) => p.trim().replace(/_/g, ''));
  const numbers = parts.map((p) => (/^\d+(\.\d+)?$/.test(p) ? Number(p) : Number.NaN));
  if (parts.length === 0 || numbers.some((n) => !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))) {
    throw new Error(`${flag} needs a comma list of positive ${integer ? 'whole ' : ''}numbers, got "${value}"`);
  }
  return numbers;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULT_OPTIONS, parts: { ...DEFAULT_OPTIONS.parts } };
  const named = new Set<BenchPart>();
  const whole = (flag: string, v: string) => {
    const list = positiveList(flag, v, true);
    if (list.length !== 1) throw new Error(`${flag} needs one positive whole number, got "${v}"`);
    return list[0];
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--markers':
        options.markers = positiveList(flag, value(), true);
        break;
      case '--runs': {
        const [runs] = positiveList(flag, value(), true);
        options.runs = runs;
        break;
      }
      case '--throttle':
        options.throttle = positiveList(flag, value(), false);
        break;
      case '--map':
        options.map = value();
        break;
      case '--out':
        options.outDir = value();
        break;
      case '--tiles-dir':
        options.tilesDir = value();
        break;
      case '--engine':
      case '--editor':
      case '--pilot': {
        if (inline !== undefined) throw new Error(`${flag} takes no value\n${USAGE}`);
        named.add(flag.slice(2) as BenchPart);
        break;
      }
      case '--actions':
        options.actions = whole(flag, value());
        break;
      case '--requests':
        options.requests = whole(flag, value());
        break;
      case '--clients':
        options.clients = whole(flag, value());
        break;
      case '--pilot-updates':
        options.pilotUpdates = whole(flag, value());
        break;
      case '--pilot-clients':
        options.pilotClients = whole(flag, value());
        break;
      case '--pilot-seconds':
        options.pilotSeconds = whole(flag, value());
        break;
      case '--render': {
        const mode = value();
        if (mode !== 'main' && mode !== 'worker') throw new Error(`--render needs main or worker, got "${mode}"\n${USAGE}`);
        options.render = mode;
        break;
      }
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (named.size > 0) options.parts = Object.fromEntries(BENCH_PARTS.map((part) => [part, named.has(part)])) as BenchParts;
  return options;
}

/**
 * The flags of a benchmark script read with `parse` (node:util's parseArgs); a flag it does
 * not know, or one without its value, prints what is wrong and the usage, and exits 2.
 */
export function parseCommandLine<T>(parse: () => T, usage: string): T {
  try {
    return parse();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
}

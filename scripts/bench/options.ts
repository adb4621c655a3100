/** Command-line options of `npm run bench` (pure parsing, with clear errors for bad input). */

export interface BenchOptions {
  markers: number[];
  runs: number;
  throttle: number[];
  map: string;
  outDir: string;
  /** A tile folder to use and keep (reused between bench runs); a fresh temp one when unset. */
  tilesDir?: string;
  /** Which parts run: the engine gesture runs, the admin-editor runs (scripts/bench/editor.ts), or both. */
  parts: { engine: boolean; editor: boolean };
  /** Editor: markers placed, moved and deleted per run (each action timed). */
  actions: number;
  /** Editor: server requests of each kind (add, update, delete) per run, sequential and spread over the concurrent clients. */
  requests: number;
  /** Editor: concurrent clients in the server round-trip test. */
  clients: number;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  markers: [1_000, 10_000, 100_000],
  runs: 3,
  throttle: [1, 4],
  map: 'customs',
  outDir: 'bench-results',
  parts: { engine: true, editor: true },
  actions: 30,
  requests: 300,
  clients: 4,
};

export const USAGE = `usage: npm run bench -- [--markers 1000,10000,100000] [--runs 3] [--throttle 1,4] [--map customs] [--out bench-results] [--tiles-dir /path/kept/between/runs]
       [--engine | --editor] [--actions 30] [--requests 300] [--clients 4]
  --engine   only the engine gesture runs; --editor   only the admin-editor runs (10,000 markers); default both`;

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
      case '--editor': {
        if (inline !== undefined) throw new Error(`${flag} takes no value\n${USAGE}`);
        const only = flag === '--engine' ? 'engine' : 'editor';
        const other = only === 'engine' ? 'editor' : 'engine';
        if (options.parts[only] && !options.parts[other]) break;
        if (!options.parts.engine || !options.parts.editor) throw new Error(`--engine and --editor exclude each other (neither: both parts)\n${USAGE}`);
        options.parts = { engine: only === 'engine', editor: only === 'editor' };
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
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  return options;
}

/** Command-line options of `npm run bench` (pure parsing, with clear errors for bad input). */

export interface BenchOptions {
  markers: number[];
  runs: number;
  throttle: number[];
  map: string;
  outDir: string;
  /** A tile folder to use and keep (reused between bench runs); a fresh temp one when unset. */
  tilesDir?: string;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  markers: [1_000, 10_000, 100_000],
  runs: 3,
  throttle: [1, 4],
  map: 'customs',
  outDir: 'bench-results',
};

export const USAGE = `usage: npm run bench -- [--markers 1000,10000,100000] [--runs 3] [--throttle 1,4] [--map customs] [--out bench-results] [--tiles-dir /path/kept/between/runs]`;

function positiveList(flag: string, value: string, integer: boolean): number[] {
  const parts = value.split(',').map((p) => p.trim().replace(/_/g, ''));
  const numbers = parts.map((p) => (/^\d+(\.\d+)?$/.test(p) ? Number(p) : Number.NaN));
  if (parts.length === 0 || numbers.some((n) => !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))) {
    throw new Error(`${flag} needs a comma list of positive ${integer ? 'whole ' : ''}numbers, got "${value}"`);
  }
  return numbers;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULT_OPTIONS };
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
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  return options;
}

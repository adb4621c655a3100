import { parseArgs } from 'node:util';
import { describe, expect, test, vi } from 'vitest';
import { DEFAULT_OPTIONS, parseCommandLine, parseOptions } from './options';

describe('bench options', () => {
  test('defaults: 1k/10k/100k markers, 3 runs, throttle 1 and 4 on customs', () => {
    expect(parseOptions([])).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS).toMatchObject({ markers: [1000, 10000, 100000], runs: 3, throttle: [1, 4], map: 'customs' });
  });
  test('reads lists and numbers, with or without "="', () => {
    expect(parseOptions(['--markers', '1000,10_000', '--runs=5', '--throttle', '1,2.5', '--map', 'woods'])).toMatchObject({
      markers: [1000, 10000],
      runs: 5,
      throttle: [1, 2.5],
      map: 'woods',
    });
  });
  test('--tiles-dir keeps a tile folder between runs', () => {
    expect(parseOptions(['--tiles-dir', '/tmp/tiles']).tilesDir).toBe('/tmp/tiles');
    expect(parseOptions([]).tilesDir).toBeUndefined();
  });
  test('bad input is a clear error', () => {
    expect(() => parseOptions(['--markers', 'lots'])).toThrow(/--markers needs a comma list/);
    expect(() => parseOptions(['--runs', '0'])).toThrow(/--runs/);
    expect(() => parseOptions(['--runs', '1.5'])).toThrow(/whole/);
    expect(() => parseOptions(['--runs'])).toThrow(/needs a value/);
    expect(() => parseOptions(['--fast'])).toThrow(/unknown option --fast/);
  });
});

describe('bench options: the editor part', () => {
  test('every part by default; --engine, --editor and --pilot run the ones named', () => {
    expect(parseOptions([]).parts).toEqual({ engine: true, editor: true, pilot: true });
    expect(parseOptions(['--editor']).parts).toEqual({ engine: false, editor: true, pilot: false });
    expect(parseOptions(['--engine', '--runs', '2']).parts).toEqual({ engine: true, editor: false, pilot: false });
    expect(parseOptions(['--editor', '--editor']).parts).toEqual({ engine: false, editor: true, pilot: false });
    expect(parseOptions(['--engine', '--pilot']).parts).toEqual({ engine: true, editor: false, pilot: true });
    expect(() => parseOptions(['--editor=1'])).toThrow(/takes no value/);
  });
  test('the pilot part is sized by updates, clients and seconds', () => {
    expect(parseOptions(['--pilot-updates', '10', '--pilot-clients=200', '--pilot-seconds', '8'])).toMatchObject({ pilotUpdates: 10, pilotClients: 200, pilotSeconds: 8 });
    expect(DEFAULT_OPTIONS).toMatchObject({ pilotUpdates: 40, pilotClients: 1000, pilotSeconds: 30 });
    expect(() => parseOptions(['--pilot-clients', '0'])).toThrow(/--pilot-clients/);
  });
  test('actions, requests and clients are positive whole numbers', () => {
    expect(parseOptions(['--actions', '20', '--requests=100', '--clients', '8'])).toMatchObject({ actions: 20, requests: 100, clients: 8 });
    expect(DEFAULT_OPTIONS).toMatchObject({ actions: 30, requests: 300, clients: 4 });
    expect(() => parseOptions(['--actions', '0'])).toThrow(/--actions/);
    expect(() => parseOptions(['--clients', '2,4'])).toThrow(/one positive whole number/);
    expect(() => parseOptions(['--requests'])).toThrow(/needs a value/);
  });
  test('parsing does not change the defaults', () => {
    parseOptions(['--editor']);
    expect(DEFAULT_OPTIONS.parts).toEqual({ engine: true, editor: true, pilot: true });
  });
});

describe('parseCommandLine (the first-paint scripts)', () => {
  const parse = (args: string[]) => () => parseArgs({ args, options: { runs: { type: 'string', default: '8' } } });

  test('gives the parsed flags', () => {
    expect(parseCommandLine(parse(['--runs', '3']), 'usage').values.runs).toBe('3');
  });

  test('an unknown flag prints what is wrong and the usage, and exits 2', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => parseCommandLine(parse(['--bogus']), 'usage: x')).toThrow('exit 2');
      expect(String(error.mock.calls[0][0])).toMatch(/--bogus[\s\S]*usage: x$/);
    } finally {
      exit.mockRestore();
      error.mockRestore();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { callerChains, largest, profileReport, packageOf, selfTimes, shortSource, type CpuProfile } from './cpu-profile';

const frame = (functionName: string, url = '', lineNumber = 0, columnNumber = 0) => ({ functionName, url, lineNumber, columnNumber });

describe('CPU profile self times', () => {
  it('sums samples by original function and package, leaving idle out', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('a', 'http://x/assets/engine-1.js', 0, 10) },
        { id: 3, callFrame: frame('b', 'http://x/assets/engine-1.js', 4, 2) },
        { id: 4, callFrame: frame('(program)') },
        { id: 5, callFrame: frame('c', 'http://x/assets/no-map.js', 1, 1) },
      ],
      samples: [1, 2, 2, 3, 4, 5],
      timeDeltas: [5000, 1000, 2000, 500, 3000, 250],
    };
    const lookup = (url: string, line: number, column: number) =>
      url.endsWith('engine-1.js')
        ? line === 1 && column === 10
          ? { source: '../../node_modules/pixi.js/lib/thing.mjs', line: 12, name: 'canUse' }
          : { source: '../../src/engine/kernels/thinning.ts', line: 115, name: null }
        : null;
    const times = selfTimes(profile, lookup);
    expect(times.totalMs).toBe(6.75);
    expect(times.byFunction.get('canUse @ nm/pixi.js/lib/thing.mjs:12')).toBe(3);
    expect(times.byFunction.get('b @ src/engine/kernels/thinning.ts:115')).toBe(0.5);
    expect(times.byFunction.get('(program)')).toBe(3);
    expect(times.byFunction.get('c')).toBe(0.25);
    expect(times.byPackage.get('nm/pixi.js')).toBe(3);
    expect(times.byPackage.get('src/engine/kernels/thinning.ts')).toBe(0.5);
    expect(times.byPackage.get('no-map.js')).toBe(0.25);
    expect(largest(times.byPackage, 2)).toEqual([['nm/pixi.js', 3], ['(program)', 3]]);
    // A second profile adds to the first.
    expect(selfTimes(profile, lookup, times).totalMs).toBe(13.5);
  });

  it('sums a function\'s samples by its nearest callers', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3] },
        { id: 2, callFrame: frame('main'), children: [4] },
        { id: 3, callFrame: frame('other'), children: [5] },
        { id: 4, callFrame: frame('addEventListener') },
        { id: 5, callFrame: frame('addEventListener'), children: [6] },
        { id: 6, callFrame: frame('inner') },
      ],
      samples: [4, 4, 5, 6, 2],
      timeDeltas: [1000, 1000, 500, 4000, 9000],
    };
    const chains = callerChains(profile, () => null, 'addEventListener', 3);
    expect([...chains.entries()]).toEqual([
      ['main', 2],
      ['other', 0.5],
    ]);
    // Deeper samples are not the function's own time; a second profile adds to the first.
    expect(callerChains(profile, () => null, 'addEventListener', 3, chains).get('main')).toBe(4);
  });

  it('prints a report per run: packages, functions, then each callers table', () => {
    const times = { byFunction: new Map([['f @ a.ts:1', 6], ['g', 2]]), byPackage: new Map([['a.ts', 6], ['(program)', 2]]), totalMs: 8 };
    const report = profileReport(times, new Map([['f', new Map([['main', 6]])]]), 2, 'self time per load', 1);
    expect(report.split('\n').filter(Boolean)).toEqual([
      'self time per load (4.0 ms sampled, idle left out)',
      'by package or file:',
      '     3.0  a.ts',
      'by function:',
      '     3.0  f @ a.ts:1',
      'callers of "f":',
      '     3.0  main',
    ]);
  });

  it('shortens sources and names packages', () => {
    expect(shortSource('../../node_modules/@pixi/colord/plugins/names.mjs')).toBe('nm/@pixi/colord/plugins/names.mjs');
    expect(shortSource('../../src/ui/App.tsx')).toBe('src/ui/App.tsx');
    expect(shortSource('/work/main/workers/markers.ts')).toBe('workers/markers.ts');
    expect(packageOf('nm/@pixi/colord/plugins/names.mjs')).toBe('nm/@pixi/colord');
    expect(packageOf('nm/react-dom/cjs/x.js')).toBe('nm/react-dom');
    expect(packageOf('src/ui/App.tsx')).toBe('src/ui/App.tsx');
  });
});

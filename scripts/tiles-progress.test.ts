/** `npm run tiles` progress: in place on a terminal, whole and fewer lines in a log. */
import { describe, expect, it } from 'vitest';
import { tilesProgress } from './tiles-progress';

function run(isTTY: boolean, total: number): string {
  let text = '';
  const p = tilesProgress({ isTTY, write: (t: string) => (text += t) });
  for (let done = 0; done <= total; done++) p.update(done, total);
  p.finish();
  return text;
}

describe('tilesProgress', () => {
  it('rewrites one line in place on a terminal, and ends it', () => {
    expect(run(true, 3)).toBe('\rlayers 0/3\rlayers 1/3\rlayers 2/3\rlayers 3/3\n');
  });

  it('prints whole lines when not a terminal, one per tenth and the last', () => {
    const lines = run(false, 46).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.every((l) => /^layers \d+\/46$/.test(l))).toBe(true);
    expect(lines[0]).toBe('layers 0/46');
    expect(lines.at(-1)).toBe('layers 46/46');
    expect(lines).toHaveLength(11);
    expect(run(false, 3)).toBe('layers 0/3\nlayers 1/3\nlayers 2/3\nlayers 3/3\n');
  });

  it('does not count the layers of a map that failed as built', () => {
    // `npm run tiles -- woods` on a broken drawing: 0 of 3, the error (finish), then the map failed.
    for (const isTTY of [true, false]) {
      let text = '';
      const p = tilesProgress({ isTTY, write: (t: string) => (text += t) });
      p.update(0, 3, 0);
      p.finish();
      p.update(3, 3, 3);
      p.finish();
      expect(text, isTTY ? 'terminal' : 'log').not.toContain('3/3');
      expect(text.trim().split('\n').map((l) => l.replace('\r', ''))).toEqual(['layers 0/3', 'layers 0/3, 3 failed']);
    }
    // Two maps, the second failing after the first was built.
    let text = '';
    const p = tilesProgress({ isTTY: false, write: (t: string) => (text += t) });
    p.update(2, 5, 0);
    p.update(5, 5, 3);
    expect(text).toBe('layers 2/5\nlayers 2/5, 3 failed\n');
  });

  it('says nothing at all for nothing shown', () => {
    const p = tilesProgress({ isTTY: true, write: () => expect.unreachable() });
    p.finish();
  });
});

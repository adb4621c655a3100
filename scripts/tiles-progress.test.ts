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

  it('says nothing at all for nothing shown', () => {
    const p = tilesProgress({ isTTY: true, write: () => expect.unreachable() });
    p.finish();
  });
});

import { describe, expect, it } from 'vitest';
import { diffFolder, inSendOrder, newNames } from './folderDiff';

describe('newNames', () => {
  it('keeps the names not seen, in listing order, once each', () => {
    expect(newNames(new Set(['a.png', 'b.png']), ['b.png', 'd.png', 'a.png', 'c.png', 'd.png'])).toEqual(['d.png', 'c.png']);
    expect(newNames(new Set(), [])).toEqual([]);
    expect(newNames(new Set(['a']), ['a'])).toEqual([]);
  });
});

describe('diffFolder', () => {
  it('takes the first listing as seen: old screenshots are never sent', () => {
    const first = diffFolder(null, ['old1.png', 'old2.png']);
    expect(first.added).toEqual([]);
    expect([...first.seen].sort()).toEqual(['old1.png', 'old2.png']);
  });

  it('reports the names added since, and forgets deleted ones', () => {
    const first = diffFolder(null, ['old.png']);
    const second = diffFolder(first.seen, ['old.png', 'new.png']);
    expect(second.added).toEqual(['new.png']);
    const third = diffFolder(second.seen, ['new.png']);
    expect(third.added).toEqual([]);
    expect([...third.seen]).toEqual(['new.png']);
    // old.png made again: it counts as new.
    expect(diffFolder(third.seen, ['new.png', 'old.png']).added).toEqual(['old.png']);
  });
});

describe('inSendOrder', () => {
  it('sorts by modification time, then by name', () => {
    const files = [
      { name: '2024-05-01[12-35]_b.png', lastModified: 300 },
      { name: '2024-05-01[12-34]_z.png', lastModified: 100 },
      { name: '2024-05-01[12-34]_a.png', lastModified: 100 },
      { name: '2024-05-01[12-33]_c.png', lastModified: 200 },
    ];
    expect(inSendOrder(files).map((f) => f.name)).toEqual(['2024-05-01[12-34]_a.png', '2024-05-01[12-34]_z.png', '2024-05-01[12-33]_c.png', '2024-05-01[12-35]_b.png']);
  });

  it('sorts by name when times are unknown, and leaves its input alone', () => {
    const files = [{ name: 'b' }, { name: 'a' }];
    expect(inSendOrder(files).map((f) => f.name)).toEqual(['a', 'b']);
    expect(files.map((f) => f.name)).toEqual(['b', 'a']);
  });
});

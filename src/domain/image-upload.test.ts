import { describe, expect, it } from 'vitest';
import { uploadSlot } from './image-upload';

const img = (url: string) => ({ img: url });
const stored = [img('/a.png'), img('/b.png'), img('/c.png')];

describe('uploadSlot', () => {
  it('is the row itself while the rows are in the stored order', () => {
    expect(uploadSlot(stored, stored, 1)).toEqual({ index: 1, replaces: '/b.png' });
  });

  it('follows the image the row shows when the rows were moved or one removed (not saved yet)', () => {
    const moved = [img('/b.png'), img('/a.png'), img('/c.png')];
    expect(uploadSlot(stored, moved, 0)).toEqual({ index: 1, replaces: '/b.png' });
    expect(uploadSlot(stored, moved, 1)).toEqual({ index: 0, replaces: '/a.png' });
    const removed = [img('/b.png'), img('/c.png')];
    expect(uploadSlot(stored, removed, 1)).toEqual({ index: 2, replaces: '/c.png' });
  });

  it('adds a new image at the end of the stored list for a row the server does not have, wherever the row is', () => {
    const rows = [img('/b.png'), img(''), img('/a.png')];
    expect(uploadSlot(stored, rows, 1)).toEqual({ index: 3, replaces: null });
    expect(uploadSlot(stored, [img('/typed-since.png')], 0)).toEqual({ index: 3, replaces: null });
    expect(uploadSlot([], [img('')], 0)).toEqual({ index: 0, replaces: null });
    expect(uploadSlot(stored, stored, 7)).toEqual({ index: 3, replaces: null });
  });

  it('tells apart two rows showing one file: the second is the second stored one, else a new image', () => {
    const twice = [img('/a.png'), img('/x.png'), img('/a.png')];
    expect(uploadSlot(twice, [img('/a.png'), img('/a.png')], 1)).toEqual({ index: 2, replaces: '/a.png' });
    expect(uploadSlot(stored, [img('/a.png'), img('/a.png')], 1)).toEqual({ index: 3, replaces: null });
  });
});

import { describe, expect, it } from 'vitest';
import type { MarkerRow } from '../../domain/marker-columns';
import { coalesce, type SceneOp } from './protocol';

const row = (uid: string, x: number, label = uid): MarkerRow => ({ uid, x, y: 10, level: 1, icon: 2, label, alwaysLabel: 0 });

function queueOf(...ops: SceneOp[]): SceneOp[] {
  const queue: SceneOp[] = [];
  for (const op of ops) coalesce(queue, op);
  return queue;
}

describe('coalesce', () => {
  it('keeps the last of a drag: one upsert per marker, its label change and filter state kept', () => {
    const queue = queueOf(
      { op: 'upsert', index: 4, row: row('a', 1, 'old'), passes: true, labelChanged: true },
      { op: 'upsert', index: 4, row: row('a', 2, 'old'), passes: undefined, labelChanged: false },
      { op: 'upsert', index: 4, row: row('a', 3, 'old'), passes: undefined, labelChanged: false },
    );
    expect(queue).toEqual([{ op: 'upsert', index: 4, row: row('a', 3, 'old'), passes: true, labelChanged: true }]);
  });

  it('keeps upserts of different markers, or of another uid in the same slot, apart', () => {
    expect(queueOf(
      { op: 'upsert', index: 4, row: row('a', 1), passes: undefined, labelChanged: false },
      { op: 'upsert', index: 5, row: row('b', 1), passes: undefined, labelChanged: false },
    )).toHaveLength(2);
    expect(queueOf(
      { op: 'upsert', index: 4, row: row('a', 1), passes: undefined, labelChanged: false },
      { op: 'upsert', index: 4, row: row('b', 1), passes: undefined, labelChanged: true },
    )).toHaveLength(2);
  });

  it('replaces a preview, hover, shape set, size or label mode by the next one', () => {
    const queue = queueOf(
      { op: 'hovered', index: 1 },
      { op: 'hovered', index: 2 },
      { op: 'preview', shape: null },
      { op: 'resize', width: 10, height: 10 },
      { op: 'resize', width: 20, height: 30 },
    );
    expect(queue).toEqual([{ op: 'hovered', index: 2 }, { op: 'preview', shape: null }, { op: 'resize', width: 20, height: 30 }]);
  });

  it('keeps a ping asked for when the next player update is not one', () => {
    const p = { mapX: 1, mapY: 2, arrowAngle: null };
    const queue = queueOf({ op: 'player', player: p, ping: true }, { op: 'player', player: { ...p, mapX: 5 }, ping: false });
    expect(queue).toEqual([{ op: 'player', player: { ...p, mapX: 5 }, ping: true }]);
  });

  it('never merges across another op: order relative to others is kept', () => {
    const queue = queueOf(
      { op: 'hovered', index: 1 },
      { op: 'selected', index: 3 },
      { op: 'hovered', index: 2 },
      { op: 'selected', index: 4 },
      { op: 'selected', index: 5 },
    );
    expect(queue.map((o) => o.op)).toEqual(['hovered', 'selected', 'hovered', 'selected', 'selected']);
  });
});

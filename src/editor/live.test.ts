import { describe, expect, it } from 'vitest';
import { applyRemoteChange, isEcho, type MarkerChange, type RemoteChangeDeps } from './live';
import { fakeSink, marker } from './testing/fakes';

function deps(known: Record<string, number>, editingUid: string | null = null) {
  const page = fakeSink([marker('m1', { version: 3 }), marker('m2', { version: 1 })]);
  const conflicts: [string, unknown][] = [];
  const d: RemoteChangeDeps = {
    sink: page.sink,
    knownVersion: (uid) => known[uid] ?? null,
    editingUid,
    onConflict: (uid, theirs) => void conflicts.push([uid, theirs]),
  };
  return { d, page, conflicts };
}

const upsert = (version: number, uid = 'm1'): MarkerChange => ({ kind: 'upsert', map: 'customs', marker: { ...marker(uid, { name: `v${version}` }), version }, by: 'bob' });

describe('applyRemoteChange', () => {
  it('ignores a version the page already has (its own change coming back)', async () => {
    const { d, page } = deps({ m1: 3 });
    expect(await applyRemoteChange(upsert(3), d)).toBe('ignored');
    expect(await applyRemoteChange(upsert(2), d)).toBe('ignored');
    expect(page.log).toEqual([]);
  });

  it('upserts and removes newer changes through the sink', async () => {
    const { d, page } = deps({ m1: 3, m2: 1 });
    expect(await applyRemoteChange(upsert(4), d)).toBe('applied');
    expect(page.markers.get('m1')).toMatchObject({ name: 'v4', version: 4 });
    // A remove carries the deleted version + 1.
    expect(await applyRemoteChange({ kind: 'remove', map: 'customs', uid: 'm2', version: 2, by: 'bob' }, d)).toBe('applied');
    expect(page.markers.has('m2')).toBe(false);
    expect(await applyRemoteChange(upsert(1, 'm3'), d)).toBe('applied');
    expect(page.log).toEqual(['upsert m1 v4', 'remove m2', 'upsert m3 v1']);
  });

  it('keeps the marker being edited: a newer change becomes a conflict', async () => {
    const { d, page, conflicts } = deps({ m1: 3 }, 'm1');
    expect(await applyRemoteChange(upsert(4), d)).toBe('conflict');
    expect(await applyRemoteChange({ kind: 'remove', map: 'customs', uid: 'm1', version: 5, by: 'bob' }, { ...d, editingUid: () => 'm1' })).toBe('conflict');
    expect(conflicts).toEqual([
      ['m1', expect.objectContaining({ version: 4 })],
      ['m1', null],
    ]);
    expect(page.log).toEqual([]);
    // Its own echo is still just an echo.
    expect(await applyRemoteChange(upsert(3), d)).toBe('ignored');
  });

  it('treats a change without a version, or a marker never seen, as new', () => {
    expect(isEcho(upsert(1), null)).toBe(false);
    expect(isEcho({ kind: 'upsert', map: 'customs', marker: marker('m1'), by: null }, 5)).toBe(false);
    expect(isEcho(upsert(5), 5)).toBe(true);
  });
});

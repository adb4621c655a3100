// @vitest-environment jsdom
import '../../i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarkerChange } from '../../api/live';
import type { Marker } from '../../domain/marker';
import { MAPS } from '../../domain/maps';
import { fakeSink, flush, marker } from '../../editor/testing/fakes';
import { NO_EDITOR, type ToolHost } from '../../engine/interaction';
import type { MarkerState } from '../../engine/types';
import { editor, resetEditor } from '../../state/editor';
import { resetPopup } from '../../state/popup';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createFakeEngine } from './testing/fakeEngine';
import { wireEditor } from './wireEditor';

const live = vi.hoisted(() => ({ onChange: null as ((change: MarkerChange) => void) | null }));
const updates = vi.hoisted(() => [] as unknown[]);

vi.mock('../../api/live', () => ({
  subscribeMarkerChanges: (_map: string, onChange: (change: MarkerChange) => void) => {
    live.onChange = onChange;
    return () => {
      live.onChange = null;
    };
  },
}));
vi.mock('../../api/markers', () => ({ compactListChanged: async () => false }));
vi.mock('../../api/admin', () => ({
  updateMarker: async (m: Marker) => {
    updates.push(m);
    return { ...m, version: (m.version ?? 0) + 1 };
  },
  addMarker: async (m: Marker) => ({ ...m, version: 1 }),
  deleteMarker: async () => ({ version: 2 }),
  uploadMarkerImage: async () => {
    throw new Error('not here');
  },
  fetchMarkerHistory: async () => [],
}));

let stopWiring: (() => void) | null = null;

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };

function state(uid: string, subCategory: string): MarkerState {
  return { uid, subCategory, level: 1, x: 100, y: 200, alpha: 1, visible: true, flag: null };
}

/** An admin's map page: the engine (dragging when told), its page of markers, and the tool host the editor gave it. */
function adminMap() {
  setSessionUser(admin);
  const engine = createFakeEngine();
  const page = fakeSink([{ ...marker('m1', { subCategory: 'Safe' }), version: 1 }, { ...marker('m2'), version: 1 }]);
  engine.markerStates = () => [...page.markers.values()].map((m) => state(m.uid, m.subCategory));
  const stop = wireEditor({ engine, sink: page.sink, map: MAPS.customs, adminTools: [] });
  stopWiring = stop;
  const host = engine.calls.filter((c) => c.method === 'setToolHost' && c.args[0] !== NO_EDITOR).at(-1)?.args[0] as ToolHost;
  let path = 'move.idle';
  engine.toolPath = () => path;
  const setPath = (next: string) => {
    path = next;
    engine.emit('toolchange', { path: next });
  };
  return { engine, page, host, stop, setPath };
}

beforeEach(() => {
  setStorageBackend(memoryStorage());
  updates.length = 0;
});
afterEach(() => {
  stopWiring?.();
  stopWiring = null;
  resetSession();
  resetEditor();
  resetPopup();
  setStorageBackend(null);
});

describe('wireEditor: a marker deleted by another admin while it is dragged', () => {
  it('makes no move of it (nothing is asked of the server) and notes it for the dock, by its type', async () => {
    const { page, host, setPath } = adminMap();
    setPath('move.dragging');
    live.onChange!({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: 'bob' });
    await flush();
    expect(page.markers.has('m1')).toBe(false);
    // Let go: the move tool asks to move it.
    host.moveMarker('m1', 300, 400);
    setPath('move.idle');
    await flush();
    expect(updates).toEqual([]);
    expect(editor.pending).toEqual({});
    expect(editor.goneWhileMoving).toEqual({ uid: 'm1', subCategory: 'Safe' });
  });

  it('still moves the dragged marker when another one is deleted meanwhile, and forgets deletes once the drag ends', async () => {
    const { host, setPath } = adminMap();
    setPath('move.dragging');
    live.onChange!({ kind: 'remove', map: 'customs', uid: 'm2', version: 2, by: 'bob' });
    await flush();
    host.moveMarker('m1', 300, 400);
    setPath('move.idle');
    await flush();
    expect(updates).toEqual([expect.objectContaining({ uid: 'm1', geometry: { x: 300, y: 400 } })]);
    expect(editor.goneWhileMoving).toBeNull();
  });

  it('says nothing of a delete heard while no marker was dragged', async () => {
    const { page, setPath } = adminMap();
    setPath('move.idle');
    live.onChange!({ kind: 'remove', map: 'customs', uid: 'm1', version: 2, by: 'bob' });
    await flush();
    expect(page.markers.has('m1')).toBe(false);
    expect(editor.goneWhileMoving).toBeNull();
  });
});

// @vitest-environment jsdom
import '../../i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Marker } from '../../domain/marker';
import { MAPS } from '../../domain/maps';
import { fakeSink, flush, marker } from '../../editor/testing/fakes';
import { NO_EDITOR, type ToolHost } from '../../engine/interaction';
import { i18n } from '../../i18n';
import { copyMarker, editor, resetEditor, selectTool, setCursor, undo } from '../../state/editor';
import { closeMap } from '../../state/mapView';
import { resetPoints } from '../../state/points';
import { resetPopup } from '../../state/popup';
import { resetSession, setSessionUser } from '../../state/session';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { createFakeEngine } from './testing/fakeEngine';
import { wireEditor } from './wireEditor';

const said = vi.hoisted(() => [] as string[]);
vi.mock('../LiveAnnouncer', () => ({
  announce: (message: string) => void said.push(message),
  clearAnnouncement: () => undefined,
  LiveAnnouncer: () => null,
}));
vi.mock('../../api/live', () => ({ subscribeMarkerChanges: () => () => undefined }));
vi.mock('../../api/markers', () => ({ compactListChanged: async () => false }));
vi.mock('../../api/admin', () => ({
  updateMarker: async (m: Marker) => ({ ...m, version: (m.version ?? 0) + 1 }),
  addMarker: async (m: Marker) => ({ ...m, version: 1 }),
  deleteMarker: async () => ({ version: 2 }),
  uploadMarkerImage: async () => {
    throw new Error('not here');
  },
  fetchMarkerHistory: async () => [],
}));

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };
let stopWiring: (() => void) | null = null;

/** An admin's map page: the engine, its markers, the tool host, and the engine's path as its keys set it. */
function adminMap() {
  setSessionUser(admin);
  const engine = createFakeEngine();
  const page = fakeSink([{ ...marker('m1'), version: 1 }]);
  stopWiring = wireEditor({ engine, sink: page.sink, map: MAPS.customs, adminTools: [] });
  const host = engine.calls.filter((c) => c.method === 'setToolHost' && c.args[0] !== NO_EDITOR).at(-1)?.args[0] as ToolHost;
  const setPath = (next: string) => engine.emit('toolchange', { path: next });
  return { engine, page, host, setPath };
}

beforeEach(() => {
  setStorageBackend(memoryStorage());
  said.length = 0;
});
afterEach(async () => {
  stopWiring?.();
  stopWiring = null;
  resetSession();
  resetEditor();
  resetPopup();
  resetPoints();
  closeMap();
  setStorageBackend(null);
  await i18n.changeLanguage('en');
});

describe('wireEditor: what a screen reader hears', () => {
  it('says a placed, moved and pasted marker and each undo / redo once done; nothing for a move that changed nothing', async () => {
    const { host } = adminMap();
    await flush();
    said.length = 0;
    host.placeMarker(10, 20);
    await flush();
    expect(said).toEqual(['Marker placed']);
    host.moveMarker('m1', 300, 400);
    await flush();
    host.moveMarker('m1', 300, 400); // let go where it was: no change
    await flush();
    expect(said).toEqual(['Marker placed', 'Marker moved']);
    copyMarker('m1');
    setCursor({ mapX: 50, mapY: 60, screenX: 5, screenY: 6 });
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'v', code: 'KeyV', ctrlKey: true, bubbles: true }));
    await flush();
    expect(said.at(-1)).toBe('Pasted');
    host.undo();
    await flush();
    expect(said.at(-1)).toBe('Undone: marker copy');
    // The tools panel's Undo (the slice's own undo) says it too.
    await undo();
    await flush();
    expect(said.at(-1)).toBe('Undone: marker move');
    host.redo();
    await flush();
    expect(said.at(-1)).toBe('Redone: marker move');
  });

  it('says the tool when it changes (keys or the panel), not the steps within a gesture nor a pointer move', async () => {
    const { engine, setPath } = adminMap();
    await flush();
    expect(said).toEqual([]);
    // The `l` key: the state tree's path comes back from the engine.
    setPath('draw.marker.idle');
    await flush();
    expect(said).toEqual(['Marker tool']);
    setPath('draw.marker.drawing');
    setPath('draw.marker.idle');
    engine.emit('pointermove', { mapX: 1, mapY: 2, screenX: 3, screenY: 4 });
    await flush();
    expect(said).toEqual(['Marker tool']);
    setPath('move.idle'); // m
    await flush();
    setPath('move.dragging');
    await flush();
    setPath('pan.idle'); // Escape
    await flush();
    selectTool('rect'); // the tools panel
    await flush();
    expect(said).toEqual(['Marker tool', 'Move mode', 'Pan', 'Rectangle tool']);
    expect(editor.mode).toBe('draw');
  });

  it('speaks the page\'s language', async () => {
    await i18n.changeLanguage('ru');
    const { host, setPath } = adminMap();
    await flush();
    setPath('draw.marker.idle');
    host.placeMarker(10, 20);
    await flush();
    expect(said).toEqual(['Инструмент «Метка»', 'Метка поставлена']);
  });
});

/**
 * The editor's wiring on the map page (beside wireEngine): for an admin it registers the admin
 * tools in the engine's state tree, hands the engine the editor's commands as its tool host,
 * binds the editor commands to the page's markers (the sink) and the admin API, and keeps the
 * engine and the editor slice in step (mode and tool ⇄ state path, shapes, selection, cursor,
 * saved points), and says each action's outcome and each change of tool to a screen reader
 * (ui/admin/editorAnnouncements.ts). For everyone it follows the live marker feed, so a change made anywhere shows
 * on every open page of the map without a reload. Signing in or out switches it at once.
 */
import { snapshot, subscribe } from 'valtio';
import * as adminApi from '../../api/admin';
import { subscribeMarkerChanges, type MarkerChange } from '../../api/live';
import { compactListChanged } from '../../api/markers';
import { currentLanguage, i18n } from '../../i18n';
import type { MapDefinition } from '../../domain/maps';
import { markerAtPress } from '../../domain/marker-at-press';
import { pointGuideShapes } from '../../domain/point-guides';
import { can } from '../../domain/roles';
import type { DrawnShape } from '../../domain/shapes';
import { ApiError } from '../../api/client';
import { createEditorCommands, type EditorApi, type EditorCommands } from '../../editor/commands';
import type { MarkerSink } from '../../editor/live';
import { NO_EDITOR, type ToolFactory, type ToolHost, type ToolShape } from '../../engine/interaction';
import type { MapEngineApi } from '../../engine/types';
import {
  addShape, bindEditor, cancelCopy, onEditorOutcome, copyMarker, copyMarkerTo, drawnShapeSelected, editor, followOpenMarker, hasUnsavedChanges, markerFlagsOf, markerSelection, noteGoneWhileMoving, pasteMarkerAt, startCopy, loadEditorPrefs, loadShapes, moveMarker, newShapeId, placeMarker,
  receiveRemoteChange, redo, removeShape, resetEditor, retrySave, selectShape, setCursor, setEditorEnabled, setLive, setPath, undo,
  updateShape,
} from '../../state/editor';
import { mapView, selectMarker } from '../../state/mapView';
import { announce } from '../LiveAnnouncer';
import { outcomeText, toolText } from '../admin/editorAnnouncements';
import { popup } from '../../state/popup';
import { keyTarget, markerKeyAction } from './editorKeys';
import { reloadUntilCurrent } from './reloadUntilCurrent';
import { LIST_SETTLE_MS } from '../../domain/list-freshness';
import { addRecordedPoint, closePoints, openPoints, points } from '../../state/points';
import { session } from '../../state/session';
import { keepSetAsideAcrossReloads } from '../../state/setAsideStore';
import { signInToSave } from './signInToSave';

export interface WireEditorOptions {
  engine: MapEngineApi;
  sink: MarkerSink;
  map: MapDefinition;
  /** The admin tools (src/tools ADMIN_TOOLS), registered while an admin is signed in. */
  adminTools: readonly ToolFactory[];
  /** Reloads the whole marker list (after the live feed was broken and changes may be missed). */
  resync?: () => Promise<void>;
}

const API: EditorApi = {
  addMarker: adminApi.addMarker,
  updateMarker: adminApi.updateMarker,
  deleteMarker: adminApi.deleteMarker,
  uploadMarkerImage: adminApi.uploadMarkerImage,
  fetchMarkerHistory: (uid) => adminApi.fetchMarkerHistory(uid),
};

/** The ids the admin tools' nodes have (they are registered by factory, removed by id). */
const ADMIN_TOOL_IDS = ['draw', 'edit', 'move'] as const;

/** The engine path's root and draw tool, e.g. `draw.rect.drawing` → ['draw', 'rect']. */
function modeOf(path: string): [string, string | null] {
  const [root, tool] = path.split('.');
  return [root, root === 'draw' ? (tool ?? null) : null];
}

/**
 * The saved points as guides, drawn as the downloaded SVG draws them (domain/point-guides.ts): the
 * recorded path, a dot at each point and, when asked, its coordinates up and to the right of it.
 */
function pointGuides(map: MapDefinition, zoom: number): ToolShape[] {
  return pointGuideShapes(points.list, { shown: points.shown, coordsShown: points.coordsShown, transform: map.transform, zoom });
}

/**
 * The map's canvas (MapCanvas.tsx's `.map-canvas` holds it; the engine's input listens on it).
 * The engine's events say nothing of a press nor of the kind of pointer: the wiring reads them
 * from the page's own pointer events on this canvas.
 */
export const MAP_CANVAS_SELECTOR = '.map-canvas canvas';

function mapCanvasOf(target: EventTarget | null): HTMLCanvasElement | null {
  return target instanceof HTMLCanvasElement && target.matches(MAP_CANVAS_SELECTOR) ? target : null;
}

/**
 * Runs an editor command from a gesture or key. Its failures (offline, refused) are in the
 * editor's state (`pending`, conflicts) and shown there; what still rejects is unexpected and
 * logged. An API error left (an undo whose marker could not be read: the step stays to undo
 * again) is only a warning.
 */
function run(what: string, command: Promise<unknown>): void {
  command.catch((error: unknown) => {
    if (error instanceof ApiError) console.warn(`raidmap: ${what} failed`, error);
    else console.error(`raidmap: ${what} failed`, error);
  });
}

export function wireEditor({ engine, sink, map, adminTools, resync }: WireEditorOptions): () => void {
  let disposed = false;
  let commands: EditorCommands | null = null;
  const offs: Array<() => void> = [];

  /** Places a marker; with "open new markers in edit mode" its popup opens in edit mode. */
  const placeAndOpen = async (x: number, y: number) => {
    const marker = await placeMarker(x, y);
    if (marker && editor.editOnOpen && !disposed) selectMarker(marker.uid);
  };

  /**
   * Markers another admin deleted while a marker was being dragged (uid → its type, read before
   * it went): the drag's marker is only known when it is let go (`moveMarker`), and if it is one
   * of these its move is not made (nothing is left to move) and the dock says why, instead of the
   * marker vanishing under the pointer with no word. Cleared when the drag ends.
   */
  const goneWhileDragging = new Map<string, string | null>();

  /**
   * The last press on the map (screen px) and its count; `shapePress`: the count of the press
   * on which a tool selected a shape (the move tool does so as it grabs one). A move drag that
   * began with no shape selected by its press is a marker's: which one, the press tells
   * (`markerAtPress`), until the tool names it when it is let go.
   */
  let press: { screenX: number; screenY: number } | null = null;
  let presses = 0;
  let shapePress = -1;
  /** The kind of pointer last on the map ('mouse', 'touch', 'pen'). */
  let pointerType = 'mouse';
  /** A marker the move tool let go (moved or copied) is the selection, whatever the press guessed. */
  const draggedMarker = (uid: string) => {
    if (editor.mode === 'move' && editor.selectedShape !== markerSelection(uid)) selectShape(markerSelection(uid));
  };

  const host: ToolHost = {
    shapes: () => snapshot(editor).shapes as readonly DrawnShape[],
    selectedShape: () => editor.selectedShape,
    selectShape: (id, options) => {
      shapePress = presses;
      selectShape(id, options);
    },
    newShapeId: () => newShapeId(),
    // A new text shape's label, in the page's language (draw-tool.ts).
    defaultTextLabel: () => i18n.t('admin.shape.newText'),
    addShape: (shape) => {
      // Only marker-type shapes go to the server, as markers (spec §5).
      if (shape.type === 'marker') run('placing a marker', placeAndOpen(shape.geometry.x, shape.geometry.y));
      else addShape(shape as DrawnShape);
    },
    updateShape: (shape, commit) => updateShape(shape as DrawnShape, commit),
    removeShape: (id) => removeShape(id),
    // A copy armed from a popup is placed by the next click, whatever the tool.
    placeMarker: (x, y) => run(editor.copying ? 'copying a marker' : 'placing a marker', editor.copying ? copyMarkerTo(editor.copying, x, y, mapView.level) : placeAndOpen(x, y)),
    moveMarker: (uid, x, y) => {
      draggedMarker(uid);
      if (goneWhileDragging.has(uid)) {
        noteGoneWhileMoving(uid, goneWhileDragging.get(uid) ?? null);
        return;
      }
      run('moving a marker', moveMarker(uid, { x, y }));
    },
    copyMarkerTo: (uid, x, y) => {
      draggedMarker(uid);
      run('copying a marker', copyMarkerTo(uid, x, y));
    },
    undo: () => run('undo', undo()),
    redo: () => run('redo', redo()),
  };

  // Mode and tool (toolbar) → the engine's state tree; its path (keys, gestures) → the slice.
  const followState = () => {
    if (!commands) return;
    const [root, tool] = modeOf(engine.toolPath());
    const wanted = editor.mode;
    const wantedTool = wanted === 'draw' ? editor.tool : null;
    if (root === wanted && tool === wantedTool) return;
    engine.setTool(wanted, wanted === 'draw' ? { shape: wantedTool } : undefined);
  };
  let lastShapes: unknown = null;
  let lastSelected: string | null = null;
  const followShapes = () => {
    const snap = snapshot(editor);
    if (snap.shapes !== lastShapes) {
      lastShapes = snap.shapes;
      engine.setShapes(commands ? (snap.shapes as readonly ToolShape[]) : []);
    }
    if (snap.selectedShape !== lastSelected) {
      lastSelected = snap.selectedShape;
      engine.setSelectedShape(snap.selectedShape);
    }
  };

  // Unsaved changes → badges on their markers.
  let lastFlags = '';
  const followFlags = () => {
    const flags = commands ? markerFlagsOf(editor) : {};
    const key = JSON.stringify(flags);
    if (key === lastFlags) return;
    lastFlags = key;
    engine.setMarkerFlags(flags);
  };

  let stopKeepingSetAside: (() => void) | null = null;
  let stopSignInToSave: (() => void) | null = null;
  let stopSayingOutcomes: (() => void) | null = null;

  // Spoken (politely, in the page's language): what a marker action did once done, and the tool
  // when it changes (keys l, m, e, 1…8, Escape, or the tools panel), not its steps within a
  // gesture (`draw.rect.idle` → `draw.rect.drawing`) nor anything per pointer move.
  let lastTool = '';
  const toolKey = () => `${editor.mode}.${editor.mode === 'draw' ? editor.tool : ''}`;
  const followTool = () => {
    const key = toolKey();
    if (key === lastTool) return;
    lastTool = key;
    if (commands) announce(toolText(i18n.t, editor.mode, editor.tool));
  };

  function becomeAdmin(): void {
    for (const factory of adminTools) engine.registerTool(factory);
    // Form work survives a reload or a closed tab (offered again as set aside).
    stopKeepingSetAside = keepSetAsideAcrossReloads(map.id);
    commands = createEditorCommands({ api: API, sink, mapId: map.id });
    bindEditor(commands);
    // A change refused because the session ended asks for a sign-in, and is sent after it.
    stopSignInToSave = signInToSave(commands);
    engine.setToolHost(host);
    loadEditorPrefs();
    loadShapes(map.id);
    openPoints(map.id);
    setEditorEnabled(true);
    setPath(engine.toolPath());
    // The tool the page starts with is not news.
    lastTool = toolKey();
    stopSayingOutcomes = onEditorOutcome((outcome) => announce(outcomeText(i18n.t, outcome)));
    lastShapes = null;
    followShapes();
  }

  function leaveAdmin(): void {
    if (!commands) return;
    stopKeepingSetAside?.();
    stopKeepingSetAside = null;
    stopSignInToSave?.();
    stopSignInToSave = null;
    stopSayingOutcomes?.();
    stopSayingOutcomes = null;
    for (const id of ADMIN_TOOL_IDS) engine.unregisterTool(id);
    engine.setToolHost(NO_EDITOR);
    bindEditor(null);
    commands.dispose();
    commands = null;
    setEditorEnabled(false);
    closePoints();
    engine.setShapes([]);
    engine.setGuides([]);
    engine.setSelectedShape(null);
    followFlags();
  }

  const followSession = () => {
    const admin = can(session.user, 'adminTools');
    if (admin && !commands) becomeAdmin();
    else if (!admin && commands) leaveAdmin();
  };

  // Remote changes: through the editor for an admin (echoes, conflicts with an open edit),
  // straight to the page's markers for everyone else.
  const onRemote = (change: MarkerChange) => {
    if (disposed) return;
    if (commands && change.kind === 'remove' && engine.toolPath() === 'move.dragging') {
      // Its type now, while the page still draws it (the dock names it by that).
      goneWhileDragging.set(change.uid, engine.markerStates().find((m) => m.uid === change.uid)?.subCategory ?? null);
    }
    const applied = commands ? receiveRemoteChange(change) : change.kind === 'upsert' ? sink.upsert(change.marker) : sink.remove(change.uid);
    void Promise.resolve(applied).catch((error: unknown) => console.error('raidmap: applying a live marker change failed', error));
  };
  let wasBroken = false;
  // Read until it is the server's: a live change landing during the read could be lost under it.
  const listChanged = () => compactListChanged(map.id, currentLanguage());
  const reload = (why: string) => {
    if (!resync) return;
    reloadUntilCurrent(resync, listChanged, { stopped: () => disposed })
      .then(() => {
        if (!disposed) retryUnreached();
      })
      .catch((error: unknown) => console.error(`raidmap: reloading markers ${why} failed`, error));
  };
  /**
   * The list was just read from the server, so it can be reached again: every change that failed
   * because it could not be (a marker placed, copied, moved, edited or deleted while it was down)
   * is sent again, as its Retry would (through the slice, so a form's work set aside that the save
   * holds is dropped as after a Retry). Unread changes were made by the reload itself; a
   * marker's add goes with its uid, so one that reached the server before is not doubled.
   */
  const retryUnreached = () => {
    for (const uid of commands?.unreachedChanges() ?? []) run('saving a change again', retrySave(uid));
  };
  let listening = false;
  const onLiveState = (state: 'connected' | 'reconnecting' | 'off') => {
    if (disposed) return;
    setLive(state);
    if (state === 'reconnecting') wasBroken = true;
    else if (state === 'connected' && wasBroken) {
      wasBroken = false;
      // Changes made while the feed was down were not replayed: read the list again, once the
      // list is sure to hold a change made just before the feed came back (list-freshness.ts).
      afterListSettles(() => reload('after the live feed came back'));
    } else if (state === 'connected' && !listening) {
      listening = true;
      // The list was read before the feed listened (or came from the cache through Back /
      // Forward): a change made in between reaches this page only by reading it again. Checked
      // once the server's list holds every change made before the feed listened: checked at
      // once, a change made a moment before could still be missing from it, and never come.
      afterListSettles(() => {
        void listChanged()
          .then((changed) => {
            if (changed && !disposed) reload('changed before the live feed listened');
          })
          .catch(() => undefined);
      });
    }
  };
  const settleTimers = new Set<ReturnType<typeof setTimeout>>();
  const afterListSettles = (run: () => void) => {
    const timer = setTimeout(() => {
      settleTimers.delete(timer);
      if (!disposed) run();
    }, LIST_SETTLE_MS);
    settleTimers.add(timer);
  };

  // Escape drops an armed copy (the state tree resets the tool and the popup closes itself).
  // Ctrl+C / Ctrl+V copy the open marker and place copies under the pointer (editorKeys.ts).
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && editor.copying) cancelCopy();
    if (!commands) return;
    const action = markerKeyAction(event, keyTarget(event.target), {
      openMarker: mapView.selectedUid,
      viewing: popup.mode !== 'edit',
      shapeSelected: drawnShapeSelected(editor),
      textSelected: !!window.getSelection?.()?.toString(),
      copied: editor.copied !== null,
    });
    if (action === 'copy' && mapView.selectedUid) {
      event.preventDefault();
      copyMarker(mapView.selectedUid);
    } else if (action === 'paste' && editor.copied) {
      event.preventDefault();
      // Off the map there is no point to paste at: the next click places it, as after Copy.
      if (editor.cursor) run('pasting a marker', pasteMarkerAt(editor.cursor.mapX, editor.cursor.mapY));
      else startCopy(editor.copied);
    }
  };
  window.addEventListener('keydown', onKey);
  offs.push(() => window.removeEventListener('keydown', onKey));

  // Leaving the page with changes the server does not hold yet (saving, or not saved: a marker
  // placed while it was down) asks first, with the browser's own "Leave site?".
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!commands || !hasUnsavedChanges(editor)) return;
    event.preventDefault();
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  offs.push(() => window.removeEventListener('beforeunload', onBeforeUnload));

  // A press on the map (before the engine's own listener, so before the tool acts on it). A
  // finger or a pen has no hover: the status bar's cursor is where it pressed (a tap, a held
  // finger), and stays there after it lifts (pointerleave) until the next touch; a mouse's
  // cursor follows its moves and goes when it leaves the map, as before.
  const onPointerDown = (event: PointerEvent) => {
    const canvas = mapCanvasOf(event.target);
    if (!canvas) return;
    pointerType = event.pointerType || 'mouse';
    const r = canvas.getBoundingClientRect();
    press = { screenX: event.clientX - r.left, screenY: event.clientY - r.top };
    presses += 1;
    if (!commands || pointerType === 'mouse' || !Number.isFinite(press.screenX) || !Number.isFinite(press.screenY)) return;
    const at = engine.toMap(press.screenX, press.screenY);
    setCursor({ mapX: at.x, mapY: at.y, screenX: press.screenX, screenY: press.screenY });
  };
  const onPointerOver = (event: PointerEvent) => {
    if (mapCanvasOf(event.target)) pointerType = event.pointerType || 'mouse';
  };
  window.addEventListener('pointerdown', onPointerDown, true);
  window.addEventListener('pointerover', onPointerOver, true);
  offs.push(() => {
    window.removeEventListener('pointerdown', onPointerDown, true);
    window.removeEventListener('pointerover', onPointerOver, true);
  });

  // The labels of the saved points sit beside their dots in screen pixels: they follow the zoom.
  let lastGuidesZoom = Number.NaN;
  const followGuides = (zoom = engine.camera().zoom) => {
    lastGuidesZoom = zoom;
    engine.setGuides(commands ? pointGuides(map, zoom) : []);
  };

  followSession();
  offs.push(
    subscribe(session, followSession),
    subscribe(editor, () => {
      followState();
      followTool();
      followShapes();
      followFlags();
      if (commands) followOpenMarker(mapView.selectedUid);
    }),
    // The marker open in edit or move is the selection (`marker:{uid}`, docs/EDITOR.md).
    subscribe(mapView, () => {
      if (commands) followOpenMarker(mapView.selectedUid);
    }),
    subscribe(points, () => followGuides()),
    engine.on('camerachange', ({ zoom }) => {
      if (commands && points.shown && points.coordsShown && zoom !== lastGuidesZoom) followGuides(zoom);
    }),
    engine.on('toolchange', ({ path }) => {
      // The drag let go (its marker's move was made or refused first) or cancelled.
      if (path !== 'move.dragging') goneWhileDragging.clear();
      if (!commands) return;
      setPath(path);
      // A marker grabbed: the one dragged is the selection while it moves.
      if (path === 'move.dragging' && press && shapePress !== presses) {
        const uid = markerAtPress(engine.markerStates(), (x, y) => engine.toScreen(x, y), press);
        if (uid) selectShape(markerSelection(uid));
      }
    }),
    engine.on('pointermove', ({ mapX, mapY, screenX, screenY }) => {
      if (commands) setCursor({ mapX, mapY, screenX, screenY });
    }),
    engine.on('pointerleave', () => {
      if (pointerType === 'mouse') setCursor(null);
    }),
    engine.on('mapclick', ({ mapX, mapY }) => {
      if (!commands) return;
      if (editor.copying) run('copying a marker', copyMarkerTo(editor.copying, mapX, mapY, mapView.level));
      addRecordedPoint(mapX, mapY);
    }),
    subscribeMarkerChanges(map.id, onRemote, onLiveState, { skip: (uid, version) => commands?.knowsVersion(uid, version) ?? false }),
  );
  followGuides();

  return () => {
    if (disposed) return;
    disposed = true;
    offs.forEach((off) => off());
    for (const timer of settleTimers) clearTimeout(timer);
    settleTimers.clear();
    leaveAdmin();
    resetEditor();
  };
}

/**
 * The admin's status bar (spec §2 "Admin only"): one monospace line at the bottom with the
 * engine's state path, the selected shape, the shape being drawn, the camera (zoom and the map
 * point at the centre) and the cursor in map, game and screen coordinates. Map and game
 * coordinates and the zoom show 4 decimals (spec §5, §9); game coordinates come from the map's
 * transform (src/domain/transform.ts). It never takes pointer events from the map.
 *
 * Props: `map` (its transform turns the cursor into game coordinates) and `camera`, the
 * engine's camera (`engine.camera()`, then each `camerachange` event), or null before the
 * engine is ready. The rest comes from the editor slice (`path`, `selectedShape`,
 * `drawingShape`, `cursor`). The selected shape shows as its type and name (`selectedText`),
 * never its internal id; the shape being drawn as its tool's name. The cursor is the mouse's
 * (gone when it leaves the map) or the last press of a finger or pen, kept until the next one
 * (ui/map/wireEditor.ts).
 *
 * The state shows as a short label in the page's language (`stateLabel`: "draw, idle",
 * «правка, перенос точки») that fits its box; the engine's path (`draw.marker.idle`, the
 * machine name docs/AUTOMATION.md's `toolPath()` gives) is kept on the value as `data-state`.
 * A screen reader reads the state in words instead ("Drawing: Marker": editorAnnouncements.ts
 * `stateText`), which the tooltip shows too. The bar is not a live region (the cursor changes
 * on every move); what an action did and a change of tool are said once by the page's
 * announcer (wireEditor.ts).
 */
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { TFunction } from 'i18next';
import type { Language } from '../../domain/marker';
import type { MapDefinition } from '../../domain/maps';
import type { DrawnShape } from '../../domain/shapes';
import { mapToGame, round4 } from '../../domain/transform';
import { editor, type EditorCursor } from '../../state/editor';
import { popup } from '../../state/popup';
import { stateText } from './editorAnnouncements';
import { markerTitle } from './markerTitle';
import { useAdminTools } from './useAdmin';
import './admin.css';

/** The camera as the engine reports it: the map pixel at the canvas centre and CSS px per map px. */
export interface StatusCamera {
  x: number;
  y: number;
  zoom: number;
}

export interface StatusBarProps {
  map: Pick<MapDefinition, 'transform'>;
  camera: StatusCamera | null;
}

/** A coordinate as the status bar shows it: rounded to 4 decimals, always 4 digits after the point. */
export function formatCoord(value: number): string {
  return Number.isFinite(value) ? round4(value).toFixed(4) : '–';
}

const pair = (a: number, b: number) => `${formatCoord(a)}, ${formatCoord(b)}`;

export function StatusBar(props: StatusBarProps) {
  const admin = useAdminTools();
  if (!admin) return null;
  return <StatusBarLine {...props} />;
}

/** The cursor's three readouts (map, game, screen) as text; '–' each without a cursor. */
export function cursorTexts(map: Pick<MapDefinition, 'transform'>, cursor: EditorCursor | null, none: string): Record<CursorField, string> {
  if (!cursor) return { map: none, game: none, screen: none };
  const game = mapToGame(map.transform, { mapX: cursor.mapX, mapY: cursor.mapY });
  return {
    map: pair(cursor.mapX, cursor.mapY),
    game: pair(game.gameX, game.gameZ),
    screen: `${Math.round(cursor.screenX)}, ${Math.round(cursor.screenY)}`,
  };
}

/** A name in the language's quotation marks: “Stash” in English, «Схрон» in Russian. */
export function quoteName(name: string, lang: string): string {
  return lang.startsWith('ru') ? `«${name}»` : `“${name}”`;
}

/**
 * The selected shape as an admin reads it, never its internal id: its type and its name or label
 * if it has one (`Rectangle “Stash”`, `Line`); a marker (`marker:{uid}`) by its name (the one
 * open in the popup), else its type. Null: nothing selected.
 */
export function selectedText(t: TFunction, lang: string, id: string | null, shapes: readonly Pick<DrawnShape, 'id' | 'type' | 'name'>[]): string | null {
  if (id === null) return null;
  if (id.startsWith('marker:')) {
    const uid = id.slice('marker:'.length);
    // The edit form's copy first (its name as typed), else the popup's marker as read.
    const shown = [popup.draft, popup.snapshot, popup.shown].filter((m) => m?.uid === uid) as NonNullable<typeof popup.draft>[];
    return shown.length ? markerTitle(t, (lang.startsWith('ru') ? 'ru' : 'en') as Language, ...shown) : t('admin.tools.marker');
  }
  const shape = shapes.find((s) => s.id === id);
  if (!shape) return null;
  const type = t(`admin.tools.${shape.type}`);
  const name = shape.name.trim();
  return name ? `${type} ${quoteName(name, lang)}` : type;
}

// The literal translation keys (src/i18n/i18n.test.ts finds each key the UI asks for by its text).
const STATE_LABELS: Record<string, string> = {
  'pan.idle': 'admin.status.states.panIdle',
  'pan.pointing': 'admin.status.states.panPointing',
  'pan.dragging': 'admin.status.states.panDragging',
  'draw.idle': 'admin.status.states.drawIdle',
  'draw.drawing': 'admin.status.states.drawing',
  'edit.idle': 'admin.status.states.editIdle',
  'edit.pointing': 'admin.status.states.editPointing',
  'edit.dragging_handle': 'admin.status.states.editDraggingHandle',
  'edit.panning': 'admin.status.states.editPanning',
  'move.idle': 'admin.status.states.moveIdle',
  'move.pointing': 'admin.status.states.movePointing',
  'move.dragging': 'admin.status.states.moveDragging',
  'move.panning': 'admin.status.states.movePanning',
};
/** Tools that place with one click (only `idle`): "place", not "draw". */
const PLACING = new Set(['marker', 'text']);

/**
 * The engine's state path as the status bar shows it: a short label in the page's language,
 * 21 characters at most (its box): `pan.idle` → "pan, idle", `draw.rect.drawing` → "draw, in
 * progress", `draw.marker.idle` → "place, idle" (the tool is the bar's "drawing"). A path not
 * known (another tool's) is shown as it is.
 */
export function stateLabel(t: TFunction, path: string): string {
  const parts = path.split('.');
  if (parts[0] === 'draw' && parts.length === 3) {
    if (parts[2] === 'idle' && PLACING.has(parts[1])) return t('admin.status.states.placeIdle');
    parts.splice(1, 1);
  }
  const key = STATE_LABELS[parts.join('.')];
  return key ? t(key) : path;
}

type CursorField = 'map' | 'game' | 'screen';
const CURSOR_FIELDS: readonly CursorField[] = ['map', 'game', 'screen'];

function StatusBarLine({ map, camera }: StatusBarProps) {
  const { t, i18n } = useTranslation();
  // Not the cursor: it changes on every pointer move, and is written to the DOM below instead
  // of re-rendering the bar (docs/PERFORMANCE.md, the editor's main-thread time per move).
  const { path, selectedShape, drawingShape, shapes } = useSnapshot(editor);
  // A selected marker is named from the popup's copy of it.
  useSnapshot(popup);
  const lang = i18n.language ?? 'en';
  const none = t('admin.status.none');
  const cursorRefs = useRef<Partial<Record<CursorField, HTMLSpanElement | null>>>({});

  useLayoutEffect(() => {
    const write = () => {
      const texts = cursorTexts(map, editor.cursor, none);
      for (const field of CURSOR_FIELDS) {
        const el = cursorRefs.current[field];
        if (!el || el.textContent === texts[field]) continue;
        // Change the text node in place: replacing it (textContent) re-styles a new node each move.
        if (el.firstChild instanceof Text && el.childNodes.length === 1) el.firstChild.data = texts[field];
        else el.textContent = texts[field];
      }
    };
    write();
    return subscribeKey(editor, 'cursor', write);
  }, [map, none]);

  const items: { key: string; label: string; value: string | null; said?: string; machine?: string }[] = [
    { key: 'state', label: t('admin.status.state'), value: path ? stateLabel(t, path) : none, said: path ? stateText(t, path) : undefined, machine: path },
    { key: 'selected', label: t('admin.status.selected'), value: selectedText(t, lang, selectedShape, shapes) ?? none },
    // The tool's name as the tools panel says it (`Rectangle`, «Прямоугольник»), not its id.
    { key: 'drawing', label: t('admin.status.drawing'), value: drawingShape ? t(`admin.tools.${drawingShape}`) : none },
    { key: 'zoom', label: t('admin.status.zoom'), value: camera ? formatCoord(camera.zoom) : none },
    { key: 'centre', label: t('admin.status.centre'), value: camera ? pair(camera.x, camera.y) : none },
    { key: 'map', label: t('admin.status.map'), value: null },
    { key: 'game', label: t('admin.status.game'), value: null },
    { key: 'screen', label: t('admin.status.screen'), value: null },
  ];

  return (
    <section className="admin-status" aria-label={t('admin.status.label')}>
      {items.map((item) => (
        <span key={item.key} className="admin-status__item" data-field={item.key}>
          <span className="admin-status__key">{item.label}</span>{' '}
          {item.value === null ? (
            <span
              className="admin-status__value admin-status__value--live"
              ref={(el) => {
                cursorRefs.current[item.key as CursorField] = el;
              }}
            />
          ) : item.said ? (
            <>
              {/* The label on screen, the words in its tooltip and for a screen reader, the path for scripts. */}
              <span className="admin-status__value admin-status__value--boxed" title={item.said} data-state={item.machine} aria-hidden="true">
                {item.value}
              </span>{' '}
              <span className="visually-hidden">{item.said}</span>
            </>
          ) : (
            <span className="admin-status__value admin-status__value--boxed" title={item.value}>
              {item.value}
            </span>
          )}
        </span>
      ))}
    </section>
  );
}

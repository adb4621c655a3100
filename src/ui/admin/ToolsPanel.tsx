/**
 * The admin's drawing tools panel (spec §2 "Admin only", §4 map interaction state): the draw
 * tools, Edit and Move, Undo / Redo, the marker tool's type, "open new markers in edit mode"
 * and the live-updates indicator. It only calls the editor slice's actions (src/state/editor.ts,
 * docs/EDITOR.md); the keys (m, l, Escape, Ctrl+Z) are wired by the map page, the titles name them.
 * Renders nothing unless the user may use the admin tools. Collapsible (starts collapsed on
 * narrow screens).
 */
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { editor, type EditorTool, redo, selectTool, setEditOnOpen, toggleEditMode, toggleMoveMode, undo, cancelCopy } from '../../state/editor';
import { layout, togglePointTools } from '../../state/layout';
import { Icon } from './icons';
import { MarkerTypePicker } from './MarkerTypePicker';
import { SelectedShape } from './SelectedShape';
import { useAdminTools } from './useAdmin';
import { SKIP_TARGETS } from '../skipTargets';
import './admin.css';

type DrawTool = NonNullable<EditorTool>;

/** The draw tools in the panel's order, each with its literal translation key. */
export const DRAW_TOOLS: readonly { tool: DrawTool; key: string }[] = [
  { tool: 'pen', key: 'admin.tools.pen' },
  { tool: 'line', key: 'admin.tools.line' },
  { tool: 'arrow', key: 'admin.tools.arrow' },
  { tool: 'rect', key: 'admin.tools.rect' },
  { tool: 'circle', key: 'admin.tools.circle' },
  { tool: 'poly', key: 'admin.tools.poly' },
  { tool: 'text', key: 'admin.tools.text' },
  { tool: 'marker', key: 'admin.tools.marker' },
];

const NARROW_QUERY = '(max-width: 720px)';

function startsOpen(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return true;
  return !window.matchMedia(NARROW_QUERY).matches;
}

/** Selecting the active tool again drops it (back to pan), as the spec's "no tool selected returns to pan". */
export function chooseTool(current: EditorTool, tool: DrawTool): void {
  selectTool(current === tool ? null : tool);
}

export function ToolsPanel() {
  const admin = useAdminTools();
  if (!admin) return null;
  return <ToolsPanelBody />;
}

function ToolsPanelBody() {
  const { t } = useTranslation();
  const state = useSnapshot(editor);
  const { pointTools } = useSnapshot(layout);
  const [open, setOpen] = useState(startsOpen);
  const bodyId = useId();
  const hintsId = useId();
  const undoRef = useRef<HTMLButtonElement>(null);
  const redoRef = useRef<HTMLButtonElement>(null);
  /** Undo or Redo, pressed last: the keyboard stays on it (see below). */
  const stepped = useRef<'undo' | 'redo' | null>(null);
  // The last step undone (redone), its button is disabled under the keyboard: the focus would
  // fall to the page, or be handed to the map as a popup the step closed goes (popups/Popup.tsx),
  // where the next Enter clicks the map. It goes to the other button, which has a step now.
  useLayoutEffect(() => {
    const pressed = stepped.current;
    if (!pressed) return;
    const [from, to] = pressed === 'undo' ? [undoRef.current, redoRef.current] : [redoRef.current, undoRef.current];
    if (!from?.disabled || !to || to.disabled) return;
    stepped.current = null;
    const active = document.activeElement;
    if (active === from || active === document.body || active === null) to.focus();
  }, [state.canUndo, state.canRedo]);

  const liveText = { connected: t('admin.tools.live.connected'), reconnecting: t('admin.tools.live.reconnecting'), off: t('admin.tools.live.off') }[state.live];
  const liveHint = { connected: t('admin.tools.liveHint.connected'), reconnecting: t('admin.tools.liveHint.reconnecting'), off: t('admin.tools.liveHint.off') }[state.live];

  return (
    // tabIndex -1: where "Skip to editor tools" lands (src/ui/map/SkipLinks.tsx).
    <section id={SKIP_TARGETS.adminTools} tabIndex={-1} className={`admin-tools${open ? ' admin-tools--open' : ''}`} aria-label={t('admin.tools.label')}>
      <div className="admin-tools__head">
        <button
          type="button"
          className="admin-button admin-tools__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true" className="admin-tools__chevron">
            {open ? '▾' : '▸'}
          </span>
          {/* On a phone the open panel's toggle is its chevron alone, beside the tools (admin.css). */}
          <span className="admin-tools__toggle-text">{open ? t('admin.tools.hide') : t('admin.tools.show')}</span>
        </button>
        <span className={`admin-live admin-live--${state.live}`} title={liveHint}>
          <span className="admin-live__dot" aria-hidden="true" />
          <span className="admin-live__text">{liveText}</span>
        </span>
      </div>
      {open && (
        <div id={bodyId} className="admin-tools__body">
          {/* The tools in one row: on a phone it scrolls sideways instead of wrapping (admin.css). */}
          <div className="admin-tools__row admin-tools__row--main">
            <div role="group" aria-label={t('admin.tools.draw')} className="admin-tools__group">
              {DRAW_TOOLS.map(({ tool, key }, index) => {
                const name = t(key);
                const active = state.mode === 'draw' && state.tool === tool;
                const hint = t('admin.tools.toolHint', { name, key: index + 1 });
                return (
                  <button
                    key={tool}
                    type="button"
                    className="admin-button admin-button--icon"
                    aria-label={name}
                    aria-pressed={active}
                    aria-keyshortcuts={String(index + 1)}
                    title={tool === 'marker' ? `${hint} · ${t('admin.tools.repeatMarker')}` : hint}
                    onClick={() => chooseTool(state.tool, tool)}
                  >
                    <Icon name={tool} />
                  </button>
                );
              })}
            </div>
            <div role="group" aria-label={t('admin.tools.modes')} className="admin-tools__group">
              <button
                type="button"
                className="admin-button"
                aria-pressed={state.mode === 'edit'}
                aria-keyshortcuts="E"
                title={t('admin.tools.editHint')}
                onClick={toggleEditMode}
              >
                <Icon name="edit" />
                <span className="admin-button__text">{t('admin.tools.edit')}</span>
              </button>
              <button
                type="button"
                className="admin-button"
                aria-pressed={state.mode === 'move'}
                aria-keyshortcuts="M"
                aria-describedby={hintsId}
                title={`${t('admin.tools.moveHint')} · ${t('admin.tools.slowMove')}`}
                onClick={toggleMoveMode}
              >
                <Icon name="move" />
                <span className="admin-button__text">{t('admin.tools.move')}</span>
              </button>
            </div>
            <div role="group" aria-label={`${t('admin.tools.undo')} / ${t('admin.tools.redo')}`} className="admin-tools__group">
              <button
                type="button"
                className="admin-button admin-button--icon"
                ref={undoRef}
                aria-label={t('admin.tools.undo')}
                aria-keyshortcuts="Control+Z"
                title={t('admin.tools.undoHint')}
                disabled={!state.canUndo}
                onClick={() => {
                  stepped.current = 'undo';
                  void undo();
                }}
                onBlur={(event) => {
                  // Taken elsewhere by the user (not dropped by its own disabling): nothing to hand on.
                  if (event.relatedTarget) stepped.current = null;
                }}
              >
                <Icon name="undo" />
              </button>
              <button
                type="button"
                className="admin-button admin-button--icon"
                ref={redoRef}
                aria-label={t('admin.tools.redo')}
                aria-keyshortcuts="Control+Shift+Z"
                title={t('admin.tools.redoHint')}
                disabled={!state.canRedo}
                onClick={() => {
                  stepped.current = 'redo';
                  void redo();
                }}
                onBlur={(event) => {
                  // Taken elsewhere by the user (not dropped by its own disabling): nothing to hand on.
                  if (event.relatedTarget) stepped.current = null;
                }}
              >
                <Icon name="redo" />
              </button>
            </div>
          </div>
          {/* The rest under the tools: on a phone it scrolls up and down where the dock's third of the screen is full (admin.css). */}
          <div className="admin-tools__more">
            <div className="admin-tools__row admin-tools__row--options">
              <MarkerTypePicker category={state.markerCategory} subCategory={state.markerSubCategory} />
              <Check checked={state.editOnOpen} onChange={setEditOnOpen} text={t('admin.tools.editOnOpen')} short={t('admin.compact.editOnOpen')} name={t('admin.tools.editOnOpenName')} />
              {/* The point-history buttons, which the top bar's Alt-click also toggles (spec §2): reachable on a phone, which has no Alt. */}
              <Check checked={pointTools} onChange={togglePointTools} text={t('admin.tools.pointHistory')} short={t('admin.compact.pointHistory')} name={t('admin.tools.pointHistoryName')} />
            </div>
            <SelectedShape />
            {state.copying && (
              <p role="status" className="admin-tools__copying">
                {t('admin.tools.copying')}
                <button type="button" className="admin-button" onClick={cancelCopy}>
                  {t('admin.tools.cancelCopy')}
                </button>
              </p>
            )}
            <p id={hintsId} className="admin-tools__hints">
              <span>{t('admin.tools.slowMove')}</span>
              <span>{t('admin.tools.repeatMarker')}</span>
            </p>
            <KeyList />
          </div>
        </div>
      )}
    </section>
  );
}

/**
 * An option's checkbox. The label shows the whole `text`; on a phone `short` instead (admin.css),
 * so the options stay one row beside the marker type. Its accessible `name` holds the words of
 * both ("Edit new: open new markers in edit mode"), so whichever shows is in it, as speech input
 * needs (WCAG 2.5.3 "Label in Name"); both shown texts are hidden from screen readers, which
 * read the name.
 */
function Check({ checked, onChange, text, short, name }: { checked: boolean; onChange: (checked: boolean) => void; text: string; short: string; name: string }) {
  return (
    <label className="admin-tools__check" title={text}>
      <input type="checkbox" checked={checked} aria-label={name} onChange={(e) => onChange(e.target.checked)} />
      <span className="admin-tools__check-text" aria-hidden="true">
        {text}
      </span>
      <span className="admin-tools__check-short" aria-hidden="true">
        {short}
      </span>
    </label>
  );
}

/** The editor's keys (root-state.ts and ui/map/editorKeys.ts), folded away until asked for. */
const KEYS: readonly { keys: readonly string[]; text: string }[] = [
  { keys: ['1', '…', '8'], text: 'admin.tools.keys.tools' },
  { keys: ['E'], text: 'admin.tools.keys.edit' },
  { keys: ['M'], text: 'admin.tools.keys.move' },
  { keys: ['L'], text: 'admin.tools.keys.last' },
  { keys: ['Shift'], text: 'admin.tools.keys.slow' },
  { keys: ['Enter'], text: 'admin.tools.keys.open' },
  { keys: ['Delete'], text: 'admin.tools.keys.delete' },
  { keys: ['Ctrl', '+', 'C'], text: 'admin.tools.keys.copy' },
  { keys: ['Ctrl', '+', 'V'], text: 'admin.tools.keys.paste' },
  // In the marker's edit form (ui/popup/MarkerEditForm.tsx; ⌘+Enter on a Mac).
  { keys: ['Ctrl', '+', 'Enter'], text: 'admin.tools.keys.save' },
  { keys: ['Ctrl', '+', 'Z'], text: 'admin.tools.keys.undo' },
  { keys: ['Ctrl', '+', 'Shift', '+', 'Z'], text: 'admin.tools.keys.redo' },
  { keys: ['Esc'], text: 'admin.tools.keys.escape' },
  // The map from the keyboard (ui/map/mapKeyboard.ts), with the map's canvas focused (Tab).
  { keys: ['←', '↑', '→', '↓'], text: 'admin.tools.keys.arrows' },
  { keys: ['Enter'], text: 'admin.tools.keys.mapEnter' },
];

function KeyList() {
  const { t } = useTranslation();
  return (
    <details className="admin-tools__keys">
      <summary>{t('admin.tools.keys.title')}</summary>
      <dl>
        {KEYS.map(({ keys, text }) => (
          <div key={text} className="admin-tools__key">
            <dt>{keys.map((k, i) => (k === '+' || k === '…' ? <span key={i}>{k}</span> : <kbd key={i}>{k}</kbd>))}</dt>
            <dd>{t(text)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/**
 * The selected drawn shape's row in the tools panel: its type, its name (the text of a text
 * shape, a label for the others: edited in place, saved as one undo step when the field is
 * left or Enter is pressed; a text left with no label is removed) and Delete. Nothing while no shape is selected.
 *
 * A text shape just placed (`editor.labelFocus`, set by the Text tool) puts the keyboard here,
 * its "Text" selected so typing replaces it. Delete takes the keyboard to the tools panel's
 * pressed tool or mode button (`focusAfterDelete`). Enter saves and gives the keyboard back to the map
 * (the tool stays); Escape saves too and then does what Escape does on the map (spec §4): tool
 * and state back to pan, no shape selected. The map's keys never see what is typed here
 * (engine/input.ts and ui/map/editorKeys.ts skip text fields).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { DrawnShape } from '../../domain/shapes';
import { editor, finishPlacing, labelFocused, removeShape, selectShape, selectTool, updateShape } from '../../state/editor';

/**
 * The tool is drawing its shape (a polygon between its points: `draw.poly.drawing`). On a phone
 * the row then waits (admin.css): shown at the polygon's second point, it grew the dock upwards
 * under the finger's next tap, which landed on the dock instead of adding a point.
 */
export function isDrawingPath(path: string): boolean {
  return /^draw\.[a-z]+\.drawing$/.test(path);
}

/**
 * Where the keyboard goes when Delete shape takes the row (and its focused button) away: the
 * tools panel's pressed tool or mode button (Edit, Move, the draw tool in use), the one the
 * admin works with next; none pressed, the tools panel itself. Never left on the page's body.
 */
export function focusAfterDelete(row: Element | null): void {
  const panel = row?.closest<HTMLElement>('.admin-tools');
  if (!panel) return;
  const pressed = panel.querySelector<HTMLElement>('.admin-tools__row--main [aria-pressed="true"]');
  (pressed ?? panel).focus();
}

export function SelectedShape() {
  const { t } = useTranslation();
  const { shapes, selectedShape, labelFocus, path } = useSnapshot(editor);
  const shape = selectedShape === null ? undefined : shapes.find((s) => s.id === selectedShape);
  const field = useRef<HTMLInputElement>(null);
  const row = useRef<HTMLDivElement>(null);
  const [name, setName] = useState(shape?.name ?? '');
  // Another shape selected, or its name changed elsewhere (undo): the field shows it in this very
  // render. An effect would set it a moment after the field appeared, over what was typed since.
  const [shown, setShown] = useState({ id: shape?.id, name: shape?.name });
  if (shown.id !== shape?.id || shown.name !== shape?.name) {
    setShown({ id: shape?.id, name: shape?.name });
    setName(shape?.name ?? '');
  }

  // A text shape just placed: its label takes the keyboard, "Text" selected to be typed over.
  const shapeId = shape?.id;
  const retake = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (labelFocus === null || labelFocus !== shapeId || !field.current) return;
    const input = field.current;
    const take = () => {
      input.focus();
      input.select();
    };
    take();
    labelFocused();
    // A tap: the browser's mouse events for it come after the tap placed the text, and their
    // press moves the keyboard to the map. Its click (within a second, on the map, not a mouse's)
    // gives it back.
    const onClick = (event: MouseEvent) => {
      stop();
      const target = event.target as Element | null;
      if ((event as PointerEvent).pointerType === 'mouse' || !input.isConnected || document.activeElement === input) return;
      if (target?.closest?.('button, a, input, select, textarea, label, [contenteditable]')) return;
      take();
    };
    const timer = setTimeout(() => stop(), 1000);
    const stop = () => {
      clearTimeout(timer);
      window.removeEventListener('click', onClick, true);
      if (retake.current === stop) retake.current = null;
    };
    retake.current?.();
    retake.current = stop;
    window.addEventListener('click', onClick, true);
  }, [labelFocus, shapeId]);
  // Another shape selected, or the panel gone: no keyboard taken back for this one.
  useEffect(() => () => retake.current?.(), [shapeId]);

  if (!shape) return null;

  // Leaving the field finishes the label: a text just placed becomes its undo step (one, with
  // the label), and a text whose label is left empty is removed (it would never be drawn).
  const commit = () => {
    const current = editor.shapes.find((s) => s.id === shape.id);
    if (!current) return;
    if (current.name === name) finishPlacing();
    else updateShape({ ...(JSON.parse(JSON.stringify(current)) as DrawnShape), name }, true);
  };

  return (
    <div ref={row} className={`admin-tools__row admin-tools__row--shape${isDrawingPath(path) ? ' admin-tools__row--while-drawing' : ''}`} role="group" aria-label={t('admin.shape.label')}>
      <span className="admin-tools__shape-type">{t(`admin.tools.${shape.type}`)}</span>
      <label className="admin-tools__shape-name">
        {shape.type === 'text' ? t('admin.shape.text') : t('admin.shape.name')}
        <input
          ref={field}
          type="text"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.nativeEvent.isComposing) return;
            if (e.key === 'Enter') {
              commit();
              e.currentTarget.blur();
            } else if (e.key === 'Escape') {
              commit();
              e.currentTarget.blur();
              // The map's Escape (root-state.ts), which the field kept from the map: pan, nothing selected.
              if (editor.mode !== 'pan') selectTool(null);
              selectShape(null);
            }
          }}
        />
      </label>
      <button
        type="button"
        className="admin-button"
        onClick={() => {
          const panel = row.current;
          removeShape(shape.id);
          focusAfterDelete(panel);
        }}
      >
        {t('admin.shape.delete')}
      </button>
    </div>
  );
}

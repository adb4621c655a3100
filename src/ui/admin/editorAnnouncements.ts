/**
 * What the editor says to a screen reader, in the page's language (docs/EDITOR.md "Spoken
 * feedback"): the outcome of each action on the map, which shows only on the canvas (a marker
 * placed, moved, pasted; an undo or redo and of what), a change of tool (keys l, m, e, 1…8,
 * Escape, or the tools panel), and the state path (`draw.marker.idle`) as words for the status
 * bar ("Drawing: Marker"). Short, said once through the page's polite live region
 * (ui/LiveAnnouncer.tsx); ui/map/wireEditor.ts says them. Pure: text only.
 */
import type { TFunction } from 'i18next';
import type { EditorStepName } from '../../editor/commands';
import type { EditorMode, EditorOutcome, EditorTool } from '../../state/editor';

// The literal translation keys (src/i18n/i18n.test.ts finds each key the UI asks for by its text).
const COPIED = { paste: 'admin.said.copied.paste', click: 'admin.said.copied.click', drag: 'admin.said.copied.drag' } as const;
const DIRECTION = { undone: 'admin.said.undone', redone: 'admin.said.redone' } as const;
const STEPS: Record<EditorStepName, string> = {
  placeMarker: 'admin.said.steps.placeMarker',
  moveMarker: 'admin.said.steps.moveMarker',
  editMarker: 'admin.said.steps.editMarker',
  copyMarker: 'admin.said.steps.copyMarker',
  deleteMarker: 'admin.said.steps.deleteMarker',
  addShape: 'admin.said.steps.addShape',
  changeShape: 'admin.said.steps.changeShape',
  deleteShape: 'admin.said.steps.deleteShape',
};
const MODES: Record<EditorMode, string> = { pan: 'admin.said.mode.pan', draw: 'admin.said.mode.draw', edit: 'admin.said.mode.edit', move: 'admin.said.mode.move' };
const ACTIVITIES: Record<string, string> = {
  drawing: 'admin.said.activity.drawing',
  dragging: 'admin.said.activity.dragging',
  dragging_handle: 'admin.said.activity.dragging_handle',
};

/** An action's outcome as said: "Marker placed", "Undone: marker move". */
export function outcomeText(t: TFunction, outcome: EditorOutcome): string {
  switch (outcome.kind) {
    case 'placed':
      return t('admin.said.placed');
    case 'moved':
      return t('admin.said.moved');
    case 'copied':
      return t(COPIED[outcome.how]);
    case 'undone':
    case 'redone':
      return t(DIRECTION[outcome.kind], { step: stepText(t, outcome.step) });
  }
}

/** An undo step by what it did ("marker move"), lower case: it follows "Undone:". */
export function stepText(t: TFunction, step: EditorStepName): string {
  const key = STEPS[step];
  return key ? t(key) : step;
}

/** The tool now in use, as said when it changes: "Marker tool", "Edit", "Move", "Pan". */
export function toolText(t: TFunction, mode: EditorMode, tool: EditorTool): string {
  if (mode === 'draw' && tool) return t('admin.said.tool', { name: t(`admin.tools.${tool}`) });
  return t(MODES[mode]);
}

/**
 * The engine's state path in words, for the status bar's readers (the path itself stays on
 * screen, as the spec shows it): `draw.marker.idle` → "Drawing: Marker", `draw.rect.drawing` →
 * "Drawing: Rectangle, in progress", `move.dragging` → "Move: dragging". A path not known
 * (another tool's) is given as it is.
 */
export function stateText(t: TFunction, path: string): string {
  const [root, ...rest] = path.split('.');
  const activity = rest.at(-1);
  const busy = activity && Object.hasOwn(ACTIVITIES, activity) ? t(ACTIVITIES[activity]) : '';
  let base: string;
  if (root === 'draw' && rest.length > 1) base = t('admin.said.state.draw', { name: t(`admin.tools.${rest[0]}`, { defaultValue: rest[0] }) });
  else if (Object.hasOwn(MODES, root)) base = t(MODES[root as EditorMode]);
  else return path;
  return busy ? t('admin.said.state.busy', { state: base, activity: busy }) : base;
}

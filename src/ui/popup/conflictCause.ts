/**
 * What asked for a delete that another admin's change stopped (src/editor/commands.ts
 * `EditorConflict.cause`): the admin's Delete, an undo of a place or copy, a redo of a delete.
 * Null for an edit's conflict. The editor slice's copy of a conflict (state/editor.ts `mirror`)
 * may not carry it: then it is read from the commands bound, and a delete without one is the
 * admin's Delete.
 */
import type { ConflictCause } from '../../editor/commands';
import { boundEditor, type EditorConflictState } from '../../state/editor';

export function conflictCause(conflict: Pick<EditorConflictState, 'uid' | 'action'> & { cause?: ConflictCause }): ConflictCause | null {
  if (conflict.action !== 'delete') return null;
  return conflict.cause ?? boundEditor()?.getState().conflicts.find((c) => c.uid === conflict.uid)?.cause ?? 'delete';
}

/**
 * An edit form with nothing typed follows the marker as the page shows it (src/editor/commands.ts
 * applies another admin's change to such a form's marker, no conflict: there is nothing to
 * lose). Whenever the marker changes on the page (`popup.revision`), the form with no typed
 * changes takes the page's copy (popup.ts `followUntouched`): its fields show it, and a save
 * is based on its version. Answers true once it followed another admin's version (not one this
 * page wrote), for the form's short note.
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { sameMarker } from '../../domain/marker-compare';
import { boundEditor, editor } from '../../state/editor';
import { followUntouched, popup } from '../../state/popup';

export function useFormFollows(uid: string): boolean {
  const { revision, mode } = useSnapshot(popup);
  const [followed, setFollowed] = useState(false);
  const editing = mode === 'edit';
  useEffect(() => {
    if (!editing) {
      setFollowed(false);
      return;
    }
    const commands = boundEditor();
    const { snapshot, draft } = popup;
    if (!commands || !snapshot || !draft || snapshot.uid !== uid || !sameMarker(snapshot, draft) || editor.conflicts[uid]) return;
    let current = true;
    void commands
      .pageCopy(uid)
      .then((copy) => {
        if (!current || !copy || boundEditor() !== commands || editor.conflicts[uid]) return;
        if (followUntouched(copy) && !commands.wroteVersion(uid, copy.version)) setFollowed(true);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [uid, revision, editing]);
  return editing && followed;
}

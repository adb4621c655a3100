/**
 * The open marker: `mapView.selectedUid` read in full from the page's marker worker. It is read
 * again whenever the selection changes and whenever `popup.revision` moves (state/popup.ts
 * `markerChanged`: the editor wiring calls it after a save, an upload, an undo or a live change),
 * so the popup never shows a stale copy. A marker that is gone closes the popup, except while
 * it is being edited: the edit form stays (a delete of ours is under way and closes the popup
 * when it is done; another admin's delete shows as a conflict, and the admin chooses), and
 * except while a conflict about its delete waits (the dock's Show, the form closed): the popup
 * then shows the admin's version of it (the set-aside edit, else the conflict's "mine") with
 * the conflict, Keep mine bringing it back and Take theirs leaving it deleted; and except while
 * "Back to them" opens the set-aside edit of a marker deleted meanwhile: the form opens on that
 * work (its delete is a conflict already where the commands heard it: state/editor.ts
 * `editingForm`; else its Save adds it again, same uid). While a
 * re-read is under way the previous copy stays on screen (no flash of an empty popup). A read
 * that fails (the full marker comes from the server behind a compact list: offline, a 5xx)
 * goes to `onReadError`. The marker's map point is the popup's `anchor` (the wiring places the
 * popup clear of it).
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Marker } from '../../domain/marker';
import { editor } from '../../state/editor';
import { mapView, selectMarker } from '../../state/mapView';
import { popup, resumingEdit, setPopupAnchor, setShownMarker, showPopupFor } from '../../state/popup';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';

/**
 * A marker gone from the page that its popup keeps (the wiring's sink does not close it): it is
 * open in the edit form, or a conflict about its delete waits (another admin deleted it).
 */
export function keepsGoneMarker(uid: string): boolean {
  if (popup.mode === 'edit' && popup.snapshot?.uid === uid) return true;
  return editor.conflicts[uid]?.theirs === null;
}

/**
 * What the popup shows of a deleted marker whose conflict waits, or whose set-aside edit "Back
 * to them" is opening: the admin's own version (its form then opens on it, with the conflict).
 */
function deletedStandIn(uid: string): Marker | null {
  const conflict = editor.conflicts[uid];
  const waiting = conflict?.theirs === null ? conflict : null;
  const aside = popup.setAside?.uid === uid ? popup.setAside : resumingEdit(uid);
  if (!waiting && !resumingEdit(uid)) return null;
  const mine = aside?.draft ?? waiting?.mine;
  return mine ? (JSON.parse(JSON.stringify(mine)) as Marker) : null;
}

export function useOpenMarker(source: MarkerSource | null, loaded: boolean, onReadError?: (error: unknown) => void): Marker | null {
  const { selectedUid } = useSnapshot(mapView);
  const { revision } = useSnapshot(popup);
  const [marker, setMarker] = useState<Marker | null>(null);

  useEffect(() => {
    if (!selectedUid) {
      setMarker(null);
      setShownMarker(null);
      showPopupFor(null);
      setPopupAnchor(null);
      return;
    }
    if (!source || !loaded) return;
    let cancelled = false;
    source
      .get(selectedUid)
      .then((found) => {
        if (cancelled) return;
        if (!found) {
          if (popup.mode === 'edit' && popup.snapshot?.uid === selectedUid) return;
          const standIn = deletedStandIn(selectedUid);
          if (standIn) {
            setMarker(standIn);
            setShownMarker(standIn);
            showPopupFor(standIn.uid);
            setPopupAnchor(standIn.geometry);
            return;
          }
          selectMarker(null);
          return;
        }
        setMarker(found);
        setShownMarker(found);
        showPopupFor(found.uid);
        setPopupAnchor(found.geometry);
      })
      .catch((error: unknown) => {
        if (cancelled || isWorkerClosed(error)) return;
        console.error('raidmap: reading the marker failed', error);
        onReadError?.(error);
      });
    return () => {
      cancelled = true;
    };
  }, [selectedUid, source, loaded, revision]);

  return selectedUid && marker && marker.uid === selectedUid ? marker : null;
}

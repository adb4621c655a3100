/**
 * The open marker: `mapView.selectedUid` read in full from the page's marker worker. It is read
 * again whenever the selection changes and whenever `popup.revision` moves (state/popup.ts
 * `markerChanged`: the editor wiring calls it after a save, an upload, an undo or a live change),
 * so the popup never shows a stale copy. A marker that is gone closes the popup, except while
 * it is being edited: the edit form stays (a delete of ours is under way and closes the popup
 * when it is done; another admin's delete shows as a conflict, and the admin chooses). While a
 * re-read is under way the previous copy stays on screen (no flash of an empty popup). A read
 * that fails (the full marker comes from the server behind a compact list: offline, a 5xx)
 * goes to `onReadError`.
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Marker } from '../../domain/marker';
import { mapView, selectMarker } from '../../state/mapView';
import { popup, showPopupFor } from '../../state/popup';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';

export function useOpenMarker(source: MarkerSource | null, loaded: boolean, onReadError?: (error: unknown) => void): Marker | null {
  const { selectedUid } = useSnapshot(mapView);
  const { revision } = useSnapshot(popup);
  const [marker, setMarker] = useState<Marker | null>(null);

  useEffect(() => {
    if (!selectedUid) {
      setMarker(null);
      showPopupFor(null);
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
          selectMarker(null);
          return;
        }
        setMarker(found);
        showPopupFor(found.uid);
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

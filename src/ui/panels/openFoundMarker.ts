/**
 * Opening a marker chosen in Find a marker, as a `?obj=` link opens one (src/ui/popup/useObjDeepLink.ts):
 * its category and subcategory are shown (a search finds hidden markers too), its level is
 * selected, its quest followed (a quest marker is drawn only then), its popup opened and the map
 * centred on it (popup.focus). Then the keyboard focus moves into the popup. On a phone the
 * panels are sheets over the map, Find a marker's among them: they fold away, as the top bar's
 * Hide panels does, so the chosen marker and its popup are what one sees (Show panels brings
 * them back).
 */
import { isNarrowWindow, setPanelsShown } from '../../state/layout';
import { selectMarker } from '../../state/mapView';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';
import { sessionKnown, showLinkedMarker } from '../popup/showLinkedMarker';

/** 'opened'; 'gone' when the marker left the map since it was found; 'closed' when the page is leaving. */
export type OpenResult = 'opened' | 'gone' | 'closed';

export async function openFoundMarker(source: MarkerSource, uid: string): Promise<OpenResult> {
  let found: Awaited<ReturnType<MarkerSource['get']>>;
  try {
    found = await source.get(uid);
  } catch (error) {
    if (isWorkerClosed(error)) return 'closed';
    console.error('raidmap: opening the marker found failed', error);
    // The popup's own read then fails the same way and offers Try again.
    selectMarker(uid);
    return 'opened';
  }
  if (!found) return 'gone';
  if (found.questUid) await sessionKnown();
  showLinkedMarker(found);
  if (isNarrowWindow()) setPanelsShown(false);
  return 'opened';
}

/** The open marker popup's dialog for `uid`, or null. */
function popupDialogOf(uid: string): HTMLElement | null {
  for (const frame of document.querySelectorAll<HTMLElement>('.marker-popup')) {
    if (frame.dataset.uid === uid) return frame.querySelector<HTMLElement>('[role="dialog"]');
  }
  return null;
}

/**
 * Moves the keyboard focus into `uid`'s popup once it shows (its marker may first be read from
 * the server). A popup that opens takes the focus itself; one already open for another marker
 * changes in place and does not, hence this. Answers a function that stops waiting.
 */
export function focusPopupWhenShown(uid: string): () => void {
  const focusIfShown = (): boolean => {
    const dialog = popupDialogOf(uid);
    if (!dialog) return false;
    if (!dialog.contains(document.activeElement)) dialog.focus({ preventScroll: true });
    return true;
  };
  if (focusIfShown()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (focusIfShown()) observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-uid'] });
  return () => observer.disconnect();
}

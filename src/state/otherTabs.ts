/**
 * What another tab of the site wrote to localStorage reaches this one through the window's
 * `storage` event (the browser fires it in every other tab of the origin, never in the one that
 * wrote) — the mechanism the drawn shapes use too (src/state/editor.ts). A module keeping a
 * value in localStorage re-reads it here so that a tab shows the other tab's change at once and
 * never writes its own stale copy back over it. (The signed-in user, which is not kept in
 * localStorage, goes over a BroadcastChannel instead: src/state/session.ts.)
 */

function localStorageOrNull(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // blocked: no event of ours can come
  }
}

/**
 * Calls `onChange` whenever another tab writes a key that `matches` (or clears the whole
 * storage: key null). Returns the unsubscribe. Outside a browser nothing is heard.
 */
export function onStoredElsewhere(matches: (key: string) => boolean, onChange: (key: string | null) => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const listener = (event: StorageEvent) => {
    // sessionStorage fires the event too (only between frames of one tab): not ours.
    if (event.storageArea && event.storageArea !== localStorageOrNull()) return;
    if (event.key === null || matches(event.key)) onChange(event.key);
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

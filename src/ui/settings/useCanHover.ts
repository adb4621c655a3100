import { useSyncExternalStore } from 'react';

/**
 * The primary pointer can hover (a mouse, a trackpad). A phone or a tablet answers false: there
 * the "hovered" marker of the label modes is the one the user tapped (a tap selects it, and the
 * selected marker's label shows in every mode), so the captions speak of taps instead.
 */
export const HOVER_QUERY = '(hover: hover)';

function hoverQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(HOVER_QUERY) : null;
}

function subscribe(onChange: () => void): () => void {
  const query = hoverQuery();
  // A tablet docked to a keyboard and trackpad changes its answer while the page is open.
  query?.addEventListener?.('change', onChange);
  return () => query?.removeEventListener?.('change', onChange);
}

/** Where the browser cannot tell (no matchMedia), a pointer that hovers: the desktop captions. */
function canHoverNow(): boolean {
  return hoverQuery()?.matches ?? true;
}

/** True while the primary pointer can hover; follows a change of pointer. */
export function useCanHover(): boolean {
  return useSyncExternalStore(subscribe, canHoverNow, () => true);
}

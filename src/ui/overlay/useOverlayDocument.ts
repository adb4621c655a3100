import { useEffect } from 'react';
import './overlay.css';

/** The class on <html> while the stream overlay shows: every background see-through. */
export const OVERLAY_DOCUMENT_CLASS = 'stream-overlay';

/**
 * While `active`, marks the document as the stream overlay (`<html class="stream-overlay">`):
 * html, body, the root and the map page lose their backgrounds, so OBS composes the map over
 * the game. The class goes when the overlay closes. An overlay address has the class already
 * before the first paint (assets/public/overlay-first-paint.js, from index.html): this effect
 * comes after React's first render, a few hundred ms too late for that paint.
 */
export function useOverlayDocument(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const root = document.documentElement;
    root.classList.add(OVERLAY_DOCUMENT_CLASS);
    return () => root.classList.remove(OVERLAY_DOCUMENT_CLASS);
  }, [active]);
}

import { useEffect } from 'react';
import './overlay.css';

/** The class on <html> while the stream overlay shows: every background see-through. */
export const OVERLAY_DOCUMENT_CLASS = 'stream-overlay';

/**
 * While `active`, marks the document as the stream overlay (`<html class="stream-overlay">`):
 * html, body, the root and the map page lose their backgrounds, so OBS composes the map over
 * the game. The class goes when the overlay closes.
 */
export function useOverlayDocument(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const root = document.documentElement;
    root.classList.add(OVERLAY_DOCUMENT_CLASS);
    return () => root.classList.remove(OVERLAY_DOCUMENT_CLASS);
  }, [active]);
}

import { useEffect } from 'react';
import { OVERLAY_DOCUMENT_CLASS } from '../../domain/overlay';
import './overlay.css';

export { OVERLAY_DOCUMENT_CLASS };

/**
 * While `active`, marks the document as the stream overlay (`<html class="stream-overlay">`):
 * html, body, the root and the map page lose their backgrounds, so OBS composes the map over
 * the game. The class goes when the overlay closes. An overlay page the server sends has the
 * class in its HTML already (server/http/map-page-head.ts), for its first paint: this effect
 * comes after React's first render, a few hundred ms too late for that paint (OBS showed a dark
 * flash); it marks the page where the server did not (the dev server).
 */
export function useOverlayDocument(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const root = document.documentElement;
    root.classList.add(OVERLAY_DOCUMENT_CLASS);
    return () => root.classList.remove(OVERLAY_DOCUMENT_CLASS);
  }, [active]);
}

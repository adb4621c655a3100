import { useCallback, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('fullscreenchange', onChange);
  return () => document.removeEventListener('fullscreenchange', onChange);
}

const isFullscreen = () => document.fullscreenElement != null;

/** Whether the page is in full screen (Fullscreen API), and a toggle. */
export function useFullscreen(): { fullscreen: boolean; toggle: () => void } {
  const fullscreen = useSyncExternalStore(subscribe, isFullscreen, () => false);
  const toggle = useCallback(() => {
    const request = isFullscreen() ? document.exitFullscreen?.() : document.documentElement.requestFullscreen?.();
    // Refused (no user gesture, iframe without allowfullscreen): the label keeps the real state.
    request?.catch(() => undefined);
  }, []);
  return { fullscreen, toggle };
}

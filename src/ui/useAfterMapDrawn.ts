/**
 * `useAfterMapDrawn()`: false until the map has drawn its first view (or, at the latest, until
 * `LATEST_MS` after the component mounted), then true for the life of the component.
 *
 * For the parts of a map page that are not needed to see the map: the quest list's rows render
 * after the first view, not in the main thread's busiest second before it (issue 11,
 * docs/PERFORMANCE.md "First paint, fourth session"). The time limit is the way out where the
 * map is slow or never becomes ready (no WebGL, an error). It is a timer, not an idle callback:
 * the page has short idle gaps while it waits for the network, long before the map is drawn.
 *
 * The switch to true is a transition (`startTransition`), not part of the update that makes the
 * map ready: that update comes from the engine's frame, and React renders a store update there
 * at once, in the same task. Rendering the rows in it held back the frame that shows the map by
 * 60–110 ms (docs/PERFORMANCE.md "Fifth session"); as a transition React renders them after it,
 * in slices between frames.
 */
import { startTransition, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { mapView } from '../state/mapView';
import { afterNextFrame } from './afterNextFrame';

/** The longest the deferred part waits for the map (ms). */
export const LATEST_MS = 2000;

export function useAfterMapDrawn(): boolean {
  const { ready } = useSnapshot(mapView);
  const [drawn, setDrawn] = useState(ready);

  useEffect(() => {
    if (drawn) return;
    if (ready) return afterNextFrame(() => startTransition(() => setDrawn(true)));
    const timer = setTimeout(() => startTransition(() => setDrawn(true)), LATEST_MS);
    return () => clearTimeout(timer);
  }, [drawn, ready]);

  return drawn;
}

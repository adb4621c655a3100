/**
 * The marker popup's part of the engine wiring: while the pointer is over the popup the map
 * does not zoom (spec §4), and a pending focus request (a `?obj=` link) centres the map.
 * Returns the function that undoes it.
 */
import { subscribeKey } from 'valtio/utils';
import type { MapEngineApi } from '../../engine/types';
import { popup, takeFocus } from '../../state/popup';

export function wirePopup(engine: Pick<MapEngineApi, 'setZoomEnabled' | 'setView'>): () => void {
  const centre = () => {
    const focus = takeFocus();
    if (focus) engine.setView({ x: focus.x, y: focus.y });
  };
  engine.setZoomEnabled(!popup.pointerOver);
  centre();
  const offs = [
    subscribeKey(popup, 'pointerOver', (over) => engine.setZoomEnabled(!over)),
    subscribeKey(popup, 'focus', (focus) => {
      if (focus) centre();
    }),
  ];
  return () => {
    offs.forEach((off) => off());
    engine.setZoomEnabled(true);
  };
}

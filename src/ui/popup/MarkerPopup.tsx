/**
 * The marker popup (spec §2 "Marker popup", §4), composed of:
 * - useOpenMarker: the selected marker (`mapView.selectedUid`) read from the worker, again when
 *   `popup.revision` moves (state/popup.ts `markerChanged`);
 * - useObjDeepLink: the `?obj=` marker opened on load (category shown, level, quest, centred);
 * - useClearQueryOnClose: closing it (Close, Escape, a click on empty map) clears `obj` and `quest`;
 * - MarkerPopupFrame (dialog, Enlarge / Shrink remembered in `map_popup`, pointer tracking) around
 *   MarkerPopupView (view mode).
 * It talks to state only; the wiring turns `popup.pointerOver` and `popup.focus` into engine calls.
 */
import { useCallback, useEffect } from 'react';
import type { MapDefinition } from '../../domain/maps';
import { selectMarker } from '../../state/mapView';
import { loadPopupSize } from '../../state/popup';
import type { MarkerSource } from '../map/markerSource';
import { MarkerPopupFrame } from './MarkerPopupFrame';
import { MarkerPopupView } from './MarkerPopupView';
import { useClearQueryOnClose } from './useClearQueryOnClose';
import { useObjDeepLink } from './useObjDeepLink';
import { useOpenMarker } from './useOpenMarker';

export interface MarkerPopupProps {
  map: MapDefinition;
  /** The page's marker worker, or null before it exists. */
  source: MarkerSource | null;
  /** The marker list is loaded into the worker. */
  loaded: boolean;
}

export function MarkerPopup({ map, source, loaded }: MarkerPopupProps) {
  useEffect(() => {
    loadPopupSize();
  }, []);
  const marker = useOpenMarker(source, loaded);
  useObjDeepLink(source, loaded);
  useClearQueryOnClose();
  const close = useCallback(() => selectMarker(null), []);

  if (!marker) return null;
  return (
    <MarkerPopupFrame marker={marker} onClose={close}>
      <MarkerPopupView map={map} marker={marker} />
    </MarkerPopupFrame>
  );
}

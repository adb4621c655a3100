/**
 * Closing the popup (from any cause: Close, Escape, a click on empty map, a deleted marker)
 * clears the `quest` and `obj` query parameters, keeping the rest (spec §4).
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { mapView } from '../../state/mapView';

export function useClearQueryOnClose(): void {
  const { selectedUid } = useSnapshot(mapView);
  const [searchParams, setSearchParams] = useSearchParams();
  const wasOpen = useRef(false);
  const latestParams = useRef(searchParams);
  useEffect(() => {
    latestParams.current = searchParams;
  });
  useEffect(() => {
    if (selectedUid) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    if (!latestParams.current.has('obj') && !latestParams.current.has('quest')) return;
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete('obj');
        next.delete('quest');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [selectedUid, setSearchParams]);
}

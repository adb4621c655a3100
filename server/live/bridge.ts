/**
 * Connects the marker repository to the live hub, both ways:
 *
 * - every committed single-marker write is published on `markersChannel(map)` (the SSE
 *   streams' messages), and every "markers of map X changed" (bulk writes too) on
 *   MARKERS_CHANGED_CHANNEL;
 * - a MARKERS_CHANGED message from another process (a PgLiveHub hears it) is replayed here
 *   through `markers.notifyChanged`, so every cache that follows `markers.onChange` (the marker
 *   lists, the quest maps) drops the map on this process too; a gap (messages may have been
 *   missed) drops every map.
 *
 * With a MemoryLiveHub nothing is remote, so the second half never fires. The process that
 * made a write publishes "changed" before the change itself and one connection sends both, so
 * another process invalidates its list before its SSE clients hear of the change; from then on
 * the list cache's own bound holds (server/http/json-cache.ts: a read 100 ms after an
 * invalidation has the write), as it does for a write made on that process.
 */
import { MAP_IDS } from '../../src/domain/maps';
import type { MarkerRepository } from '../db/markers';
import { markersChannel, type LiveHub } from './hub';

/** `{ map }` each time markers of a map changed (any write, bulk included). */
export const MARKERS_CHANGED_CHANNEL = 'markers-changed';

export function bridgeMarkerEvents(markers: MarkerRepository, hub: LiveHub): () => void {
  // Set while replaying a remote change, so it is not published back.
  let replaying = false;
  const replay = (maps: readonly string[]) => {
    replaying = true;
    try {
      markers.notifyChanged(maps);
    } finally {
      replaying = false;
    }
  };
  const offs = [
    markers.onChange((map) => {
      if (!replaying) hub.publish(MARKERS_CHANGED_CHANNEL, { map });
    }),
    markers.onMarkerChange((change) => hub.publish(markersChannel(change.map), change)),
  ];
  // Only a shared hub hears other processes (an in-process one has no remote messages, no gaps).
  if (hub.shared) {
    offs.push(
      hub.subscribe(MARKERS_CHANGED_CHANNEL, (data, _json, { remote }) => {
        const map = (data as { map?: unknown } | null)?.map;
        if (remote && typeof map === 'string') replay([map]);
      }),
      hub.onGap(() => replay(MAP_IDS)),
    );
  }
  return () => offs.forEach((off) => off());
}

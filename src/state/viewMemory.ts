/**
 * The map view kept for a reload of the tab (docs/DECISIONS.md "A reload keeps the map view"):
 * per tab and per map in sessionStorage `map:view:{mapId}` (storage.ts, per-tab scope). The
 * parts are written when they change (the camera once a gesture has come to rest, see
 * src/ui/map/useRememberedView.ts) and read back through the domain's checks, so a bad value
 * is simply not restored.
 */
import type { MapDefinition } from '../domain/maps';
import { parseRememberedView, serializeRememberedView, viewMemoryKey, type RememberedView } from '../domain/map-view-memory';
import { readTabStored, writeTabStored } from './storage';

type ViewMap = Pick<MapDefinition, 'id' | 'size' | 'minZoom' | 'maxZoom' | 'levels'>;

/** What this tab remembers of `map`'s view (only the valid parts). */
export function rememberedView(map: ViewMap): RememberedView {
  return parseRememberedView(readTabStored(viewMemoryKey(map.id)), map);
}

/** Remembers these parts of `map`'s view; the other parts stay as they were. */
export function rememberView(map: ViewMap, parts: RememberedView): void {
  writeTabStored(viewMemoryKey(map.id), serializeRememberedView({ ...rememberedView(map), ...parts }));
}

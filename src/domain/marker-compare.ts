/**
 * Comparing two copies of a marker by content (pure): the editor's commands (is there anything
 * to save?) and the popup's edit form (is there typed work a close would lose?) ask alike.
 */
import type { Marker } from './marker';

/** JSON with object keys sorted, so copies that differ only in key order compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Same fields, whatever the versions. */
export function sameMarker(a: Marker, b: Marker): boolean {
  const { version: _a, ...restA } = a;
  const { version: _b, ...restB } = b;
  return stableJson(restA) === stableJson(restB);
}

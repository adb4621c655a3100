/**
 * Live marker changes (docs/EDITOR.md "API client"): the server's
 * `GET /api/be/live/markers?map=` server-sent-events stream over the browser's EventSource;
 * when it breaks it is closed and a new one is opened, backing off from 2 s to 30 s
 * (eventStream.ts). Each `marker` event's data is a MarkerChange; a
 * message of another shape is ignored with a console warning.
 */
import { markerSchema, type Marker } from '../domain/marker';
import { apiUrl } from './client';
import { openReconnectingStream, type StreamState } from './eventStream';

/** What one committed write did to one map (server/db/markers.ts has the server's copy). */
export type MarkerChange =
  | { kind: 'upsert'; map: string; marker: Marker; by: string | null }
  | { kind: 'remove'; map: string; uid: string; version: number; by: string | null };

/** 'connected': the stream is open; 'reconnecting': it broke and is being re-opened; 'off': disposed (or no EventSource here). */
export type LiveState = StreamState;

/** A MarkerChange from untrusted JSON, or null when it is not one. */
export function parseMarkerChange(value: unknown): MarkerChange | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.map !== 'string' || !(v.by === null || typeof v.by === 'string')) return null;
  if (v.kind === 'upsert') {
    const parsed = markerSchema.safeParse(v.marker);
    if (!parsed.success || parsed.data.map !== v.map) return null;
    return { kind: 'upsert', map: v.map, marker: parsed.data, by: v.by };
  }
  if (v.kind === 'remove') {
    if (typeof v.uid !== 'string' || v.uid === '' || typeof v.version !== 'number' || !Number.isInteger(v.version) || v.version < 0) return null;
    return { kind: 'remove', map: v.map, uid: v.uid, version: v.version, by: v.by };
  }
  return null;
}

/**
 * Listens to the marker changes of one map until the returned function is called. `onState`
 * hears 'connected' when the stream opens, 'reconnecting' when it breaks (a new one is opened
 * later, backing off) and 'off' once disposed. Changes missed
 * while reconnecting are not replayed: on a 'connected' after 'reconnecting', reload the list.
 */
export interface SubscribeOptions {
  /**
   * Asked with the uid and version an event carries before the event is validated: true drops
   * it (an echo of the page's own write, which is most events on an admin's page).
   */
  skip?(uid: string, version: number): boolean;
}

/** The uid and version an event names, read without validating the rest; null when it names none. */
export function eventIdentity(value: unknown): { uid: string; version: number } | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as { kind?: unknown; uid?: unknown; version?: unknown; marker?: { uid?: unknown; version?: unknown } | null };
  const source = v.kind === 'upsert' ? v.marker : v.kind === 'remove' ? v : null;
  if (!source || typeof source !== 'object') return null;
  const { uid, version } = source;
  return typeof uid === 'string' && typeof version === 'number' && Number.isInteger(version) ? { uid, version } : null;
}

export function subscribeMarkerChanges(
  map: string,
  onChange: (change: MarkerChange) => void,
  onState?: (state: LiveState) => void,
  options: SubscribeOptions = {},
): () => void {
  const url = apiUrl(`/api/be/live/markers?map=${encodeURIComponent(map)}`);

  const onMessage = (event: MessageEvent) => {
    let data: unknown;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      console.warn('live: ignoring a marker event that is not JSON', event.data);
      return;
    }
    const identity = options.skip ? eventIdentity(data) : null;
    if (identity && options.skip?.(identity.uid, identity.version)) return;
    const change = parseMarkerChange(data);
    if (!change) {
      console.warn('live: ignoring a marker event of an unknown shape', data);
      return;
    }
    if (change.map !== map) {
      console.warn(`live: ignoring a change of map "${change.map}" on the stream of "${map}"`);
      return;
    }
    onChange(change);
  };

  return openReconnectingStream(url, { events: { marker: onMessage }, onState });
}

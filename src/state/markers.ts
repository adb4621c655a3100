/** What the page knows about the loaded marker list; the list itself stays in the worker. */
import { proxy } from 'valtio';

export type MarkersStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface MarkersState {
  status: MarkersStatus;
  /** Error text to show when status is 'error'. */
  error: string | null;
  count: number;
  /** Markers per subcategory id on this map. */
  counts: Record<string, number>;
  /** Markers dropped because they failed validation. */
  issues: number;
}

export const markers = proxy<MarkersState>({ status: 'idle', error: null, count: 0, counts: {}, issues: 0 });

export function markersLoading(): void {
  markers.status = 'loading';
  markers.error = null;
  markers.count = 0;
  markers.counts = {};
  markers.issues = 0;
}

export function markersLoaded(result: { count: number; counts: Record<string, number>; issues: number }): void {
  markers.status = 'ready';
  markers.error = null;
  markers.count = result.count;
  markers.counts = result.counts;
  markers.issues = result.issues;
}

export function markersFailed(message: string): void {
  markers.status = 'error';
  markers.error = message;
}

export function resetMarkers(): void {
  markers.status = 'idle';
  markers.error = null;
  markers.count = 0;
  markers.counts = {};
  markers.issues = 0;
}

/** The per-subcategory counts after one marker was added, changed or removed (the editor, the live feed). */
export function setMarkerCounts(counts: Record<string, number>): void {
  markers.counts = counts;
  markers.count = Object.values(counts).reduce((sum, n) => sum + n, 0);
}

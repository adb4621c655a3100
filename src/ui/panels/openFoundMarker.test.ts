import { afterEach, describe, expect, it, vi } from 'vitest';
import { marker } from '../../editor/testing/fakes';
import { layout, NARROW_QUERY, setPanelsShown } from '../../state/layout';
import { mapView } from '../../state/mapView';
import { popup } from '../../state/popup';
import type { MarkerSource } from '../map/markerSource';
import { openFoundMarker } from './openFoundMarker';

/** A source that knows one marker. */
const sourceOf = (found = marker('m1', { geometry: { x: 120, y: 340 } })) => ({ get: async (uid: string) => (uid === found.uid ? found : null) }) as unknown as MarkerSource;

/** A window `matches` wide or not (the phone query). */
function windowIs(narrow: boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === NARROW_QUERY && narrow, media: query }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  setPanelsShown(true);
});

describe('openFoundMarker', () => {
  it('opens the marker and asks the map to show it', async () => {
    windowIs(false);
    expect(await openFoundMarker(sourceOf(), 'm1')).toBe('opened');
    expect(mapView.selectedUid).toBe('m1');
    expect(popup.focus).toEqual({ x: 120, y: 340 });
  });

  it('folds the panels away on a phone, where they are sheets over the marker', async () => {
    windowIs(true);
    setPanelsShown(true);
    await openFoundMarker(sourceOf(), 'm1');
    expect(layout.panelsShown).toBe(false);
  });

  it('leaves the panels on a wide window, and when the marker is gone', async () => {
    windowIs(false);
    setPanelsShown(true);
    await openFoundMarker(sourceOf(), 'm1');
    expect(layout.panelsShown).toBe(true);
    windowIs(true);
    expect(await openFoundMarker(sourceOf(), 'gone-uid')).toBe('gone');
    expect(layout.panelsShown).toBe(true);
  });
});

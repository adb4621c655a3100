import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import { playerToMap } from '../../domain/position';
import { setPlayerPosition } from '../../state/player';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { useMapPage } from '../map/testing/mapPageTest';
import { engines, engineOptions } from '../map/testing/engineModuleMock';
import { renderRoute } from '../map/testing/renderRoute';
import { OVERLAY_DOCUMENT_CLASS } from './useOverlayDocument';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

useMapPage({ markers: [] });

afterEach(() => {
  act(() => setPlayerPosition(null));
});

describe('stream overlay (/map/{map}?overlay=1)', () => {
  it('is the map alone on a see-through page, at the zoom asked for, following the player', async () => {
    const { unmount } = renderRoute('/map/factory?overlay=1&zoom=0.5&scale=2');
    expect(document.documentElement).toHaveClass(OVERLAY_DOCUMENT_CLASS);
    await waitFor(() => expect(engines).toHaveLength(1));
    expect(engineOptions[0]).toMatchObject({ transparent: true, labelScale: 2 });
    const engine = engines[0];
    expect(engine.camera().zoom).toBe(0.5);
    // No top bar, panels, status or popups.
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();

    // Below the map's start zoom the normal page would not move the view; the overlay centres it.
    expect(0.5).toBeLessThan(MAPS.factory.startZoom);
    const position = { x: 12, y: -30, z: 1, look: null };
    act(() => setPlayerPosition(position));
    const { mapX, mapY } = playerToMap(position, MAPS.factory);
    await waitFor(() => expect(engine.camera()).toEqual({ x: mapX, y: mapY, zoom: 0.5 }));

    unmount();
    expect(document.documentElement).not.toHaveClass(OVERLAY_DOCUMENT_CLASS);
  });

  it('draws larger labels and a close view by default', async () => {
    const { unmount } = renderRoute('/map/factory?overlay=1');
    await waitFor(() => expect(engines).toHaveLength(1));
    expect(engineOptions[0]).toMatchObject({ transparent: true, labelScale: 1.5 });
    expect(engines[0].camera().zoom).toBe(1.5);
    unmount();
  });

  it('leaves the normal map page as it was', async () => {
    const { unmount } = renderRoute('/map/factory?overlay=0');
    expect(document.documentElement).not.toHaveClass(OVERLAY_DOCUMENT_CLASS);
    await waitFor(() => expect(engines).toHaveLength(1));
    expect(engineOptions[0].transparent).toBeUndefined();
    expect(engineOptions[0].labelScale).toBeUndefined();
    expect(screen.getAllByRole('button').length).toBeGreaterThan(0);
    unmount();
  });
});

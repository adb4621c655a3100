/**
 * The map's zoom buttons (ZoomControls.tsx): their names in both languages, a press zooms as the
 * + and − keys do, at a limit the button says it is unavailable and keeps the focus; on the map
 * page for everyone, not on the stream overlay.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { MAPS } from '../../domain/maps';
import { createEngineHandle } from './automation';
import { KEY_ZOOM_FACTOR } from './mapKeyboard';
import { engines } from './testing/engineModuleMock';
import { createFakeEngine } from './testing/fakeEngine';
import { createLocalMarkerSource } from './testing/localMarkerSource';
import { useMapPage } from './testing/mapPageTest';
import { renderRoute } from './testing/renderRoute';
import { ZoomControls } from './ZoomControls';

vi.mock('../../engine/index', () => import('./testing/engineModuleMock'));
vi.mock('./markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

useMapPage({ markers: [] });

afterEach(async () => {
  await setLanguage('en');
});

const limits = { minZoom: 0.5, maxZoom: 4 };

function controls(zoom = 1) {
  const engine = createFakeEngine({ width: 1000, height: 800 }, { x: 500, y: 400, zoom });
  const handle = createEngineHandle();
  handle.engine = engine;
  render(<ZoomControls limits={limits} handle={handle} />);
  return engine;
}

describe('zoom buttons', () => {
  it('are a named group of two named buttons', () => {
    controls();
    const group = screen.getByRole('group', { name: 'Zoom' });
    expect(group).toContainElement(screen.getByRole('button', { name: 'Zoom in' }));
    expect(group).toContainElement(screen.getByRole('button', { name: 'Zoom out' }));
  });

  it('are named in Russian', async () => {
    await setLanguage('ru');
    controls();
    expect(screen.getByRole('group', { name: 'Масштаб' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Приблизить' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отдалить' })).toBeInTheDocument();
  });

  it('zoom by the keys\' step about the middle (no covers measured here: the canvas\'s centre)', async () => {
    const user = userEvent.setup();
    const engine = controls();
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(engine.camera()).toEqual({ x: 500, y: 400, zoom: KEY_ZOOM_FACTOR });
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(engine.camera().zoom).toBeCloseTo(1 / KEY_ZOOM_FACTOR, 9);
    expect(engine.camera()).toMatchObject({ x: 500, y: 400 });
  });

  it('say a step is unavailable at the limit, keep the focus, and do nothing there', async () => {
    const user = userEvent.setup();
    const engine = controls(3);
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
    expect(zoomIn).not.toHaveAttribute('aria-disabled');
    zoomIn.focus();
    await user.keyboard('{Enter}');
    expect(engine.camera().zoom).toBe(4);
    expect(zoomIn).toHaveAttribute('aria-disabled', 'true');
    expect(zoomIn).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(engine.camera().zoom).toBe(4);
    expect(zoomOut).not.toHaveAttribute('aria-disabled');
  });

  it('follow the camera moved by something else (a pinch, the wheel)', () => {
    const engine = controls();
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
    expect(zoomOut).not.toHaveAttribute('aria-disabled');
    act(() => {
      engine.setView({ zoom: 0.5 });
      engine.emit('camerachange', engine.camera());
    });
    expect(zoomOut).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Zoom in' })).not.toHaveAttribute('aria-disabled');
  });

  it('show only once there is an engine to zoom', async () => {
    const handle = createEngineHandle();
    render(<ZoomControls limits={limits} handle={handle} />);
    expect(screen.queryByRole('group', { name: 'Zoom' })).toBeNull();
    handle.engine = createFakeEngine();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Zoom' })).toBeInTheDocument());
  });
});

describe('zoom buttons on the map page', () => {
  it('are there for a visitor, at the map\'s own limits', async () => {
    renderRoute('/map/factory');
    await waitFor(() => expect(engines).toHaveLength(1));
    // Once the map has drawn its first view (useAfterMapDrawn: at the latest 2 s after the page).
    const zoomOut = await screen.findByRole('button', { name: 'Zoom out' }, { timeout: 4000 });
    act(() => {
      engines[0].setView({ zoom: MAPS.factory.minZoom });
      engines[0].emit('camerachange', engines[0].camera());
    });
    expect(zoomOut).toHaveAttribute('aria-disabled', 'true');
  });

  it('are not on the stream overlay', async () => {
    renderRoute('/map/factory?overlay=1');
    await waitFor(() => expect(engines).toHaveLength(1));
    // Looked for after the engine started: the buttons come with it (a look every 250 ms).
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByRole('button', { name: 'Zoom in' })).toBeNull();
  });
});

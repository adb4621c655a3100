import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { setCategoryHidden } from '../../state/filters';
import { mapView } from '../../state/mapView';
import { createLocalMarkerSource } from './testing/localMarkerSource';
import { TEST_API_BASE as BASE } from './testing/mapApi';
import { useMapPage } from './testing/mapPageTest';
import { engines, engineOptions } from './testing/engineModuleMock';
import { renderRoute } from './testing/renderRoute';

vi.mock('../../engine/index', () => import('./testing/engineModuleMock'));
vi.mock('./markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

const markerList = [
  { uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Safe' },
  { uid: 'm-exit', map: 'factory', category: 'Extractions', subCategory: 'PMC Extraction', level: 2, geometry: { x: 1500, y: 400 }, name: 'Gate 3' },
  { uid: 'm-bad', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 'x', geometry: { x: 1, y: 1 } },
];

const server = useMapPage({ markers: markerList });

afterEach(() => {
  vi.restoreAllMocks();
});

const renderMap = (path = '/map/factory', strict = false) => renderRoute(path, { strict });

describe('map page', () => {
  it('sets the title and shows a loading indicator', async () => {
    renderMap();
    expect(document.title).toBe('Map - Factory - raidmap');
    // The page's loading status (Find a marker keeps a live region of its own in the panel).
    expect(screen.getByText(/Loading map/).closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(engines).toHaveLength(1));
  });

  it('has one main landmark holding the map (its canvas, loading line, failure); the top bar is the banner, outside it', async () => {
    renderMap();
    const main = screen.getByRole('main');
    expect(within(main).getByText(/Loading map/)).toBeInTheDocument();
    await waitFor(() => expect(within(main).getByRole('application', { name: /Factory/ })).toBeInTheDocument());
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(main.contains(screen.getByRole('banner'))).toBe(false);
    expect(main.contains(screen.getByRole('link', { name: 'Skip to map search' }))).toBe(false);
  });

  it('shows a clear error when the server is down, and retries', async () => {
    server.use(
      http.get(`${BASE}/tiles/factory/manifest.json`, () => HttpResponse.error()),
      http.get(`${BASE}/api/be/markers/compact`, () => HttpResponse.error()),
    );
    renderMap();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The map could not be loaded');
    expect(alert).toHaveTextContent('The server could not be reached');
    expect(screen.queryByText(/Loading map/)).toBeNull();
    expect(engines).toHaveLength(0);

    server.resetHandlers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect(engines).toHaveLength(1));
  });

  it("shows the server's message when the API answers with an error", async () => {
    server.use(http.get(`${BASE}/api/be/markers/compact`, () => HttpResponse.json({ error: 'internal', message: 'Database is locked' }, { status: 500 })));
    renderMap();
    expect(await screen.findByRole('alert')).toHaveTextContent('The server answered: Database is locked');
    expect(mapView.ready).toBe(false);
  });

  it("says the map's art cannot be shown, in the page's language, never the server's words (its file paths)", async () => {
    const leak = 'the map source of "factory" could not be read: /srv/raidmap/assets/maps/factory/map.json: placement: Invalid input';
    server.use(http.get(`${BASE}/tiles/factory/manifest.json`, () => HttpResponse.json({ error: 'Internal Server Error', message: leak }, { status: 500 })));
    try {
      for (const [lang, text] of [['en', "This map's art cannot be shown right now"], ['ru', 'Изображение этой карты сейчас не удаётся показать']] as const) {
        await i18n.changeLanguage(lang);
        const { unmount } = renderMap();
        const alert = await screen.findByRole('alert');
        expect(alert).toHaveTextContent(text);
        expect(alert).not.toHaveTextContent('/srv/raidmap');
        expect(alert).not.toHaveTextContent('Invalid input');
        unmount();
      }
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('says why loading failed in the language switched to after the failure, body and all', async () => {
    // The art, then the server down: each message was kept as text in the old language.
    server.use(http.get(`${BASE}/tiles/factory/manifest.json`, () => HttpResponse.json({ error: 'x', message: 'y' }, { status: 500 })));
    try {
      const first = renderMap();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent("This map's art cannot be shown right now");
      await act(() => i18n.changeLanguage('ru'));
      expect(alert).toHaveTextContent('Изображение этой карты сейчас не удаётся показать');
      expect(alert).not.toHaveTextContent("This map's art");
      first.unmount();

      await act(() => i18n.changeLanguage('en'));
      server.use(
        http.get(`${BASE}/tiles/factory/manifest.json`, () => HttpResponse.error()),
        http.get(`${BASE}/api/be/markers/compact`, () => HttpResponse.error()),
      );
      renderMap();
      const offline = await screen.findByRole('alert');
      expect(offline).toHaveTextContent('The server could not be reached');
      await act(() => i18n.changeLanguage('ru'));
      expect(offline).not.toHaveTextContent('The server could not be reached');
      expect(offline).toHaveTextContent(i18n.t('map.errorOffline'));
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  it('shows an error when the marker list is not JSON', async () => {
    server.use(http.get(`${BASE}/api/be/markers/compact`, () => new HttpResponse('<html>proxy error</html>', { headers: { 'content-type': 'text/html' } })));
    renderMap();
    expect(await screen.findByRole('alert')).toHaveTextContent(/marker list could not be read: .*not valid JSON/);
  });

  it('mounts the engine once, feeds it markers and exposes window.__map', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { unmount, container } = renderMap();
    expect(window.__map?.mapId).toBe('factory');
    expect(window.__map?.ready).toBe(false);
    expect(window.__map?.camera()).toBeNull();

    await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
    const engine = engines[0];
    expect(engineOptions[0].map.id).toBe('factory');
    expect(engineOptions[0].manifest.version).toBe('abc');
    expect(engineOptions[0].iconUrl('safe')).toBe(`${BASE}/icons/safe.svg`);
    expect(engineOptions[0].iconAtlasUrl).toBe(`${BASE}/icons/atlas.png`);
    expect(engine.columns?.uids).toEqual(['m-safe', 'm-exit']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/1 marker\(s\) of factory skipped.*m-bad.*level/);

    act(() => engine.emit('ready', undefined));
    await waitFor(() => expect(window.__map?.ready).toBe(true));
    expect(screen.queryByText(/Loading map/)).toBeNull();

    const api = window.__map!;
    expect(api.renderer).toBe('webgl');
    expect(api.camera()).toEqual({ x: 500, y: 400, zoom: 2 });
    expect(api.stats()?.frames).toBe(3);
    expect(api.markers()).toEqual([
      { uid: 'm-safe', category: 'Loot', subCategory: 'Safe', level: 1, x: 500, y: 400, alpha: 1, visible: true, flag: null },
      { uid: 'm-exit', category: 'Extractions', subCategory: 'PMC Extraction', level: 2, x: 1500, y: 400, alpha: 0.2, visible: false, flag: null },
    ]);

    // toScreen/toMap add the canvas's page offset to the engine's canvas-relative pixels.
    const canvas = container.querySelector('canvas')!;
    vi.spyOn(canvas, 'getBoundingClientRect').mockReturnValue({ left: 30, top: 40, right: 1030, bottom: 840, width: 1000, height: 800, x: 30, y: 40, toJSON: () => ({}) });
    expect(api.toScreen(500, 400)).toEqual({ x: 530, y: 440 });
    expect(api.toMap(530, 440)).toEqual({ x: 500, y: 400 });
    expect(() => api.toScreen(Number.NaN, 1)).toThrow(/finite numbers/);

    // Filters reach the engine through the worker.
    act(() => setCategoryHidden('Loot', true));
    await waitFor(() => expect(api.markers().map((m) => m.uid)).toEqual(['m-exit']));

    unmount();
    expect(engine.disposed).toBe(true);
    expect(window.__map).toBeUndefined();
  });

  it('opens the map at its default level and follows engine clicks', async () => {
    renderMap('/map/factory');
    await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
    const engine = engines[0];
    expect(engine.level).toBe(1);
    act(() => engine.emit('markerclick', { uid: 'm-exit' }));
    await waitFor(() => expect(engine.selected).toBe('m-exit'));
  });

  it('a render worker that fails before the map is drawn: another engine at once, no error; a later failure is said, with "Try again"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderMap();
    await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
    act(() => engines[0].emit('failed', { message: 'the render worker failed: its script did not load', cause: 'worker' }));
    await waitFor(() => expect(engines[1]?.columns ?? null).not.toBeNull());
    expect(engines[0].disposed).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringMatching(/main thread: the render worker failed/));

    // Drawn, then failed (or failed a second time): the page says so, and does not loop.
    act(() => engines[1].emit('ready', undefined));
    act(() => engines[1].emit('failed', { message: 'the render worker stopped', cause: 'worker' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('the render worker stopped');
    expect(engines).toHaveLength(2);
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(engines.at(-1)?.columns ?? null).not.toBeNull());
    expect(engines.filter((e) => !e.disposed)).toHaveLength(1);
  });

  it('a lost WebGL context before the map is drawn is said at once (a new engine would lose it too)', async () => {
    renderMap();
    await waitFor(() => expect(engines[0]?.columns ?? null).not.toBeNull());
    act(() => engines[0].emit('failed', { message: 'the WebGL context was lost and did not come back', cause: 'context' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('did not come back');
    expect(engines).toHaveLength(1);
  });

  it('keeps exactly one live engine under StrictMode double effects', async () => {
    const { container, unmount } = renderMap('/map/factory', true);
    await waitFor(() => expect(engines.filter((e) => !e.disposed && e.columns)).toHaveLength(1));
    act(() => engines.find((e) => !e.disposed)!.emit('ready', undefined));
    await waitFor(() => expect(window.__map?.ready).toBe(true));
    expect(engines.filter((e) => !e.disposed)).toHaveLength(1);
    expect(container.querySelectorAll('.map-canvas')).toHaveLength(1);
    unmount();
    expect(engines.every((e) => e.disposed)).toBe(true);
    expect(window.__map).toBeUndefined();
  });

  it('leaves the map page through the home link and removes window.__map', async () => {
    const { router } = renderMap();
    await waitFor(() => expect(engines).toHaveLength(1));
    await userEvent.click(screen.getByRole('link', { name: 'All maps' }));
    expect(router.state.location.pathname).toBe('/');
    expect(document.title).toBe('raidmap');
    expect(engines[0].disposed).toBe(true);
    expect(window.__map).toBeUndefined();
  });
});

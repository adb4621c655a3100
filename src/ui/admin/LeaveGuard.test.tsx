import '../../i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink, marker, offline } from '../../editor/testing/fakes';
import { i18n, setLanguage } from '../../i18n';
import { bindEditor, moveMarker, placeMarker, resetEditor, retrySave } from '../../state/editor';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { LeaveGuard } from './LeaveGuard';

/** The app with a map page (the guard, links away and within it), the list and the quests page; the map open after the list. */
function renderApp() {
  const router = createMemoryRouter(
    [
      {
        path: '/map/:mapId',
        element: (
          <>
            <LeaveGuard />
            <Link to="/">All maps</Link>
            <Link to="/map/woods">Woods</Link>
            <Link to="/progression/quests">Quests</Link>
            <Link to="/map/customs?m=m2">Same map, another marker</Link>
          </>
        ),
      },
      { path: '/', element: <p>Map list</p> },
      { path: '/progression/quests', element: <p>Quests page</p> },
    ],
    { initialEntries: ['/', '/map/customs'], initialIndex: 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** An admin's commands on customs, with m1 and m2 on the map. */
function bindAdmin() {
  const server = fakeServer();
  const stored = [server.seed(marker('m1')), server.seed(marker('m2'))];
  const commands = createEditorCommands({ api: server.api, sink: fakeSink(stored).sink, mapId: 'customs', newUid: () => 'new-1' });
  bindEditor(commands);
  return server;
}

/** A move of m1 the server did not take (it was down). */
async function failedMove(server: ReturnType<typeof fakeServer>) {
  server.failNext('update', offline());
  await act(() => moveMarker('m1', { x: 7, y: 8 }));
}

const dialog = () => screen.queryByRole('dialog', { name: 'Leave this map?' });

beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEditor();
});
afterEach(async () => {
  resetEditor();
  setStorageBackend(null);
  if (i18n.language !== 'en') await setLanguage('en');
});

describe('LeaveGuard', () => {
  it('asks before leaving the map with a change the server has not taken; Stay keeps the page and the change', async () => {
    const server = bindAdmin();
    await failedMove(server);
    const router = renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'All maps' }));
    expect(dialog()).toHaveTextContent('1 change on this map is not saved on the server yet. If you leave now, it will be lost.');
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(dialog()).toBeNull();
    expect(router.state.location.pathname).toBe('/map/customs');
    // Asked again next time; Leave goes.
    await userEvent.click(screen.getByRole('link', { name: 'Quests' }));
    expect(dialog()).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Quests page')).toBeInTheDocument();
  });

  it('asks for another map and for the browser Back too, counting the changes lost apart from the markers placed (kept for later)', async () => {
    const server = bindAdmin();
    await failedMove(server);
    server.failNext('update', offline());
    await act(() => moveMarker('m2', { x: 9, y: 9 }));
    server.failNext('add', offline());
    await act(async () => void (await placeMarker(1, 1)));
    const router = renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Woods' }));
    expect(dialog()).toHaveTextContent('2 changes on this map are not saved on the server yet. If you leave now, they will be lost.');
    expect(dialog()).toHaveTextContent('1 marker you placed is not saved either; it stays on this device and is offered back the next time you open this map.');
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await act(() => router.navigate(-1));
    expect(dialog()).not.toBeNull();
    expect(router.state.location.pathname).toBe('/map/customs');
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Map list')).toBeInTheDocument();
  });

  it('asks for unsaved markers placed alone too, saying they are kept', async () => {
    const server = bindAdmin();
    server.failNext('add', offline());
    await act(async () => void (await placeMarker(1, 1)));
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'All maps' }));
    expect(dialog()).toHaveTextContent('1 marker you placed is not saved on the server yet. It stays on this device and is offered back the next time you open this map.');
    expect(dialog()).not.toHaveTextContent('lost');
  });

  it('asks in the page language', async () => {
    const server = bindAdmin();
    await failedMove(server);
    await setLanguage('ru');
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'All maps' }));
    expect(screen.getByRole('dialog', { name: 'Уйти с этой карты?' })).toHaveTextContent('1 изменение на этой карте ещё не сохранено на сервере. Если уйти сейчас, оно пропадёт.');
    expect(screen.getByRole('button', { name: 'Остаться' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Уйти' })).toBeInTheDocument();
  });

  it('lets the admin go unasked with nothing to lose, or within the same map', async () => {
    const server = bindAdmin();
    const router = renderApp();
    await failedMove(server);
    await userEvent.click(screen.getByRole('link', { name: 'Same map, another marker' }));
    expect(dialog()).toBeNull();
    expect(router.state.location.search).toBe('?m=m2');
    await act(() => retrySave('m1'));
    await userEvent.click(screen.getByRole('link', { name: 'All maps' }));
    expect(dialog()).toBeNull();
    expect(await screen.findByText('Map list')).toBeInTheDocument();
  });

  it('goes where it was asked to once the changes are saved while it asks', async () => {
    const server = bindAdmin();
    await failedMove(server);
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'All maps' }));
    expect(dialog()).not.toBeNull();
    await act(() => retrySave('m1'));
    await waitFor(() => expect(screen.getByText('Map list')).toBeInTheDocument());
    expect(dialog()).toBeNull();
  });

  it('needs the app router: drawn bare (a component test of the dock) it does nothing', () => {
    const { container } = render(<LeaveGuard />);
    expect(container).toBeEmptyDOMElement();
  });
});

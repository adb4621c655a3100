import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditorCommands } from '../../editor/commands';
import { ApiError } from '../../api/client';
import { fakeServer, fakeSink, offline } from '../../editor/testing/fakes';
import { i18n } from '../../i18n';
import { bindEditor, editor, placeMarker, resetEditor, setLive } from '../../state/editor';
import { closeMap, mapView, openMap } from '../../state/mapView';
import { resetPopup, showPopupFor } from '../../state/popup';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { UnsavedChanges } from './UnsavedChanges';

beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEditor();
  resetPopup();
  openMap('customs');
});
afterEach(async () => {
  resetEditor();
  resetPopup();
  closeMap();
  setStorageBackend(null);
  await i18n.changeLanguage('en');
});

/** An editor whose server is down for the next `failures` adds. */
function bindOffline(failures: number) {
  const server = fakeServer();
  const page = fakeSink([]);
  let n = 0;
  bindEditor(createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs', newUid: () => `new-${++n}` }));
  for (let i = 0; i < failures; i++) server.failNext('add', offline());
  return { server, page };
}

describe('UnsavedChanges', () => {
  it('shows nothing while every change is saved', () => {
    bindOffline(0);
    const { container } = render(<UnsavedChanges />);
    expect(container).toBeEmptyDOMElement();
  });

  it('counts the markers the server did not take, says why, and Retry all saves them', async () => {
    const { server } = bindOffline(3);
    render(<UnsavedChanges />);
    await act(async () => {
      for (let i = 0; i < 3; i++) await placeMarker(10 * i, 5);
    });
    expect(Object.keys(editor.pending)).toEqual(['new-1', 'new-2', 'new-3']);
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('3 changes not saved: the server could not be reached. Try again.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry all' }));
    await act(async () => undefined);
    expect(editor.pending).toEqual({});
    expect(screen.queryByRole('status')).toBeNull();
    // The refused tries, then one save each.
    expect(server.writes().filter((w) => w.op === 'add').map((w) => w.uid).slice(-3)).toEqual(['new-1', 'new-2', 'new-3']);
  });

  it('leaves the open marker’s failure to its popup; Show opens the first other one', async () => {
    bindOffline(2);
    render(<UnsavedChanges />);
    await act(async () => {
      await placeMarker(1, 1);
      await placeMarker(2, 2);
      showPopupFor('new-1');
    });
    expect(await screen.findByRole('status')).toHaveTextContent('1 change not saved:');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(mapView.selectedUid).toBe('new-2');
  });

  it('never says the server cannot be reached while the live feed shows it back; says so again when the feed breaks', async () => {
    bindOffline(2);
    render(<UnsavedChanges />);
    await act(async () => setLive('reconnecting'));
    await act(async () => {
      await placeMarker(1, 1);
      await placeMarker(2, 2);
    });
    expect(await screen.findByRole('status')).toHaveTextContent('2 changes not saved: the server could not be reached. Try again.');
    await act(async () => setLive('connected'));
    expect(screen.getByRole('status')).toHaveTextContent('2 changes not saved: the server was out of reach; it is back now.');
    expect(screen.getByRole('status')).not.toHaveTextContent('could not be reached');
    expect(screen.getByRole('button', { name: 'Retry all' })).toBeEnabled();
    await act(async () => void (await i18n.changeLanguage('ru')));
    expect(screen.getByRole('status')).toHaveTextContent('2 изменения не сохранены: сервер был недоступен, теперь связь восстановлена.');
    await act(async () => setLive('reconnecting'));
    expect(screen.getByRole('status')).toHaveTextContent('2 изменения не сохранены: сервер недоступен.');
  });

  it('while live, a refusal is still said in the server\'s words', async () => {
    const { server } = bindOffline(0);
    server.failNext('add', new ApiError('/api/be/admin/marker/add', 400, 'bad_request', 'level: must be a whole number'));
    render(<UnsavedChanges />);
    await act(async () => setLive('connected'));
    await act(async () => void (await placeMarker(1, 1)));
    expect(await screen.findByRole('status')).toHaveTextContent('1 change not saved: level: must be a whole number');
  });
});

import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink, marker } from '../../editor/testing/fakes';
import { i18n } from '../../i18n';
import { bindEditor, editor, resetEditor } from '../../state/editor';
import { resetPopup } from '../../state/popup';
import { keepSetAsideAcrossReloads, unsavedAddsStorageKey } from '../../state/setAsideStore';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { UnsavedMarkersNotice } from './UnsavedMarkersNotice';

let storage: ReturnType<typeof memoryStorage>;
let stopKeeping: (() => void) | null = null;

/** A page after a reload: the markers an earlier page placed and never saved are stored; the list holds `listed`. */
function reloadedWith(kept: ReturnType<typeof marker>[], listed: ReturnType<typeof marker>[] = [], failures = 0) {
  storage.setItem(unsavedAddsStorageKey('customs'), JSON.stringify({ 'earlier-page': kept }));
  const server = fakeServer();
  const stored = listed.map((m) => server.seed(m));
  const page = fakeSink(stored);
  for (let i = 0; i < failures; i++) server.failNext('add');
  stopKeeping = keepSetAsideAcrossReloads('customs', new EventTarget(), Object.assign(new EventTarget(), { visibilityState: 'visible' as const }));
  const commands = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
  bindEditor(commands);
  return { server, page, commands };
}

beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetEditor();
  resetPopup();
});
afterEach(async () => {
  stopKeeping?.();
  stopKeeping = null;
  resetEditor();
  resetPopup();
  setStorageBackend(null);
  await i18n.changeLanguage('en');
});

describe('UnsavedMarkersNotice', () => {
  it('shows nothing without markers kept from an earlier page', () => {
    reloadedWith([]);
    const { container } = render(<UnsavedMarkersNotice />);
    expect(container).toBeEmptyDOMElement();
  });

  it('offers the kept markers back; Put back shows them as unsaved (failed offline: Retry) and saves the rest', async () => {
    const { server, page, commands } = reloadedWith([marker('a', { name: 'Stash' }), marker('b')], [], 1);
    render(<UnsavedMarkersNotice />);
    expect(screen.getByRole('status')).toHaveTextContent('2 markers you placed were not saved before you left this map.');
    await userEvent.click(screen.getByRole('button', { name: 'Put back' }));
    await act(() => commands.settle());
    expect(screen.queryByRole('status')).toBeNull();
    expect(page.markers.get('a')).toMatchObject({ name: 'Stash' });
    expect(editor.pending.a).toMatchObject({ status: 'failed' });
    expect(server.stored.get('b')).toMatchObject({ uid: 'b', version: 1 });
  });

  it('does not add a marker the loaded list already holds', async () => {
    const { server, commands } = reloadedWith([marker('a', { name: 'Placed' })], [marker('a', { name: 'Saved after all' })]);
    render(<UnsavedMarkersNotice />);
    expect(screen.getByRole('status')).toHaveTextContent('1 marker you placed was not saved');
    await userEvent.click(screen.getByRole('button', { name: 'Put back' }));
    await act(() => commands.settle());
    expect(server.writes()).toEqual([]);
    expect(editor.pending).toEqual({});
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('Discard drops them: nothing sent, nothing stored', async () => {
    const { server } = reloadedWith([marker('a')]);
    render(<UnsavedMarkersNotice />);
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(server.writes()).toEqual([]);
    expect(storage.getItem(unsavedAddsStorageKey('customs'))).toBeNull();
  });

  it('speaks Russian', async () => {
    reloadedWith([marker('a'), marker('b'), marker('c')]);
    await i18n.changeLanguage('ru');
    render(<UnsavedMarkersNotice />);
    expect(screen.getByRole('status')).toHaveTextContent('3 поставленные вами метки не сохранились до того, как вы ушли с этой карты.');
    expect(screen.getByRole('button', { name: 'Вернуть' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отбросить' })).toBeInTheDocument();
  });
});

/** The dock's "not saved" notice says its reason in the language switched to after the failure. */
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink, offline } from '../../editor/testing/fakes';
import { i18n } from '../../i18n';
import { bindEditor, placeMarker, resetEditor } from '../../state/editor';
import { closeMap, openMap } from '../../state/mapView';
import { resetPopup } from '../../state/popup';
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

describe('UnsavedChanges after a language switch', () => {
  it('gives the reason in the new language, not the one the failure came in', async () => {
    const server = fakeServer();
    bindEditor(createEditorCommands({ api: server.api, sink: fakeSink([]).sink, mapId: 'customs', newUid: () => 'new-1' }));
    server.failNext('add', offline());
    render(<UnsavedChanges />);
    await act(async () => void (await placeMarker(1, 1)));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('1 change not saved: the server could not be reached');
    await act(async () => void (await i18n.changeLanguage('ru')));
    const russian = i18n.t('markerEdit.errors.offline');
    expect(russian).not.toMatch(/server/);
    expect(screen.getByRole('status')).toHaveTextContent(russian);
    expect(screen.getByRole('status')).not.toHaveTextContent('the server could not be reached');
  });
});

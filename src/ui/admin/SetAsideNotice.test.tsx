import '../../i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Marker } from '../../domain/marker';
import { setLanguage } from '../../i18n';
import { editor, resetEditor } from '../../state/editor';
import { closeMap, mapView, openMap } from '../../state/mapView';
import { closeEditRemoved, patchDraft, popup, resetPopup, setAsideMarkerBack, showPopupFor, startEdit } from '../../state/popup';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { SetAsideNotice } from './SetAsideNotice';

const safe: Marker = {
  uid: 'm-safe',
  map: 'factory',
  category: 'Loot',
  subCategory: 'Safe',
  level: 1,
  geometry: { x: 1, y: 2 },
  name: 'Safe',
  desc: '',
  imgs: [],
  name_l10n: { en: 'Office safe', ru: 'Сейф в офисе' },
  desc_l10n: {},
  itemsUid: [],
  version: 3,
};

beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetPopup();
  openMap('factory');
});
afterEach(async () => {
  resetEditor();
  resetPopup();
  closeMap();
  setStorageBackend(null);
  await setLanguage('en');
});

/** An edit of the safe with a typed name, left by opening another marker. */
function leaveTypedEdit() {
  act(() => {
    showPopupFor('m-safe');
    startEdit(safe);
    patchDraft({ name_l10n: { en: 'Big safe', ru: 'Сейф в офисе' } });
    showPopupFor('m-exit');
  });
}

describe('SetAsideNotice', () => {
  it('shows nothing while no edit is set aside', () => {
    const { container } = render(<SetAsideNotice />);
    expect(container).toBeEmptyDOMElement();
  });

  it('says when Undo took the marker itself away, and that its button adds it again; a redo makes it an edit again', async () => {
    render(<SetAsideNotice />);
    act(() => {
      showPopupFor('m-safe');
      startEdit(safe);
      patchDraft({ name_l10n: { en: 'Big safe', ru: 'Сейф в офисе' } });
      closeEditRemoved('m-safe');
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Your unsaved changes to “Big safe” were kept; Undo took the marker itself away.');
    expect(screen.getByRole('button', { name: 'Add it again' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back to them' })).toBeNull();
    act(() => setAsideMarkerBack('m-safe'));
    expect(await screen.findByRole('button', { name: 'Back to them' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('were kept when its form closed.');
  });

  it('names the marker as typed; Back to them selects it, and its popup opens the form as it was left', async () => {
    render(<SetAsideNotice />);
    leaveTypedEdit();
    expect(await screen.findByRole('status')).toHaveTextContent('Your unsaved changes to “Big safe” were kept when its form closed.');
    await userEvent.click(screen.getByRole('button', { name: 'Back to them' }));
    expect(mapView.selectedUid).toBe('m-safe');
    expect(screen.queryByRole('status')).toBeNull();
    // The popup follows the selection (useOpenMarker): the form opens with the typed name.
    act(() => showPopupFor('m-safe'));
    expect(popup.mode).toBe('edit');
    expect(popup.draft?.name_l10n).toEqual({ en: 'Big safe', ru: 'Сейф в офисе' });
    expect(popup.snapshot?.version).toBe(3);
  });

  it('Discard drops it, and nothing comes back', async () => {
    render(<SetAsideNotice />);
    leaveTypedEdit();
    await userEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => showPopupFor('m-safe'));
    expect(popup.mode).toBe('view');
  });

  it('stays silent while the same marker has a conflict waiting (that notice speaks for the work)', async () => {
    const { container } = render(<SetAsideNotice />);
    leaveTypedEdit();
    await screen.findByRole('status');
    act(() => {
      editor.conflicts = { 'm-safe': { uid: 'm-safe', mine: safe, theirs: safe, action: 'update', origin: 'save' } };
    });
    await waitFor(() => expect(container).toBeEmptyDOMElement());
    act(() => {
      editor.conflicts = {};
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Big safe');
  });

  it('speaks Russian too', async () => {
    await setLanguage('ru');
    render(<SetAsideNotice />);
    leaveTypedEdit();
    expect(await screen.findByRole('status')).toHaveTextContent('«Сейф в офисе»');
    expect(screen.getByRole('button', { name: 'Вернуться к ним' })).toBeInTheDocument();
  });

  it('names an unnamed marker by its type, never by its uid, in English and Russian', async () => {
    const unnamed: Marker = { ...safe, uid: '1ba587ff-af16-4c1e-9c55-0a8d6b1f2e3a', name: '', name_l10n: {} };
    render(<SetAsideNotice />);
    act(() => {
      showPopupFor(unnamed.uid);
      startEdit(unnamed);
      patchDraft({ desc: 'Behind the desk' });
      showPopupFor('m-exit');
    });
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Your unsaved changes to “Safe (unnamed)” were kept');
    expect(notice).not.toHaveTextContent('1ba587ff');
    await act(() => setLanguage('ru'));
    expect(await screen.findByRole('status')).toHaveTextContent('«Сейф (без названия)»');
  });
});

import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Marker } from '../../domain/marker';
import { editor, resetEditor } from '../../state/editor';
import { closeMap, mapView, openMap } from '../../state/mapView';
import { popup, resetPopup, showPopupFor } from '../../state/popup';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { focusResumedForm, forgetResumeFocus } from '../popup/resumeFocus';
import { WaitingConflicts } from './WaitingConflicts';

const marker = (uid: string, name: string): Marker => ({
  uid,
  map: 'factory',
  category: 'Loot',
  subCategory: 'Safe',
  level: 1,
  geometry: { x: 1, y: 2 },
  name,
  desc: '',
  imgs: [],
  name_l10n: {},
  desc_l10n: {},
  itemsUid: [],
  version: 2,
});

const conflictOn = (uid: string, name: string) => ({ uid, mine: marker(uid, name), theirs: marker(uid, 'Theirs'), action: 'update' as const, origin: 'save' as const });

beforeEach(() => {
  setStorageBackend(memoryStorage());
  resetEditor();
  resetPopup();
  openMap('factory');
});
afterEach(() => {
  forgetResumeFocus();
  resetEditor();
  resetPopup();
  closeMap();
  setStorageBackend(null);
});

describe('WaitingConflicts', () => {
  it('shows nothing without a conflict, or for the conflict of the marker open (its popup shows it)', async () => {
    const { container } = render(<WaitingConflicts />);
    expect(container).toBeEmptyDOMElement();
    act(() => {
      showPopupFor('b');
      editor.conflicts = { b: conflictOn('b', 'My B') };
    });
    expect(container).toBeEmptyDOMElement();
  });

  it('says which marker waits for a choice once its popup is closed; Show opens it', async () => {
    render(<WaitingConflicts />);
    act(() => {
      editor.conflicts = { b: conflictOn('b', 'My B') };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Another admin changed “My B” while you edited it: choose which version stays.');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(mapView.selectedUid).toBe('b');
  });

  it('says when the marker was deleted; Show brings its set-aside form back', async () => {
    render(<WaitingConflicts />);
    const mine = marker('b', 'My B');
    act(() => {
      popup.setAside = { uid: 'b', snapshot: marker('b', 'B'), draft: mine };
      editor.conflicts = { b: { uid: 'b', mine, theirs: null, action: 'update', origin: 'live' } };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Another admin deleted “My B” while you edited it: choose whether it comes back.');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(mapView.selectedUid).toBe('b');
    // The form comes back as it was left once the popup shows the marker (useOpenMarker).
    expect(popup.setAside).toBeNull();
    act(() => showPopupFor('b'));
    expect(popup).toMatchObject({ mode: 'edit', draft: { name: 'My B' } });
  });

  it('puts the keyboard in the form that Show brings back, as "Back to them" does', async () => {
    render(<WaitingConflicts />);
    const mine = marker('b', 'My B');
    act(() => {
      popup.setAside = { uid: 'b', snapshot: marker('b', 'B'), draft: mine };
      editor.conflicts = { b: { uid: 'b', mine, theirs: null, action: 'update', origin: 'live' } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Show' }));
    // The popup's form, once in the page, takes the focus on its first field (MarkerPopup calls this).
    const form = document.createElement('form');
    form.innerHTML = '<input aria-label="Name"><textarea aria-label="Description"></textarea>';
    document.body.append(form);
    expect(focusResumedForm('b', form)).toBe(true);
    expect(document.activeElement).toBe(form.querySelector('input'));
    form.remove();
  });

  it('says "changed or deleted" for several when one was deleted', async () => {
    render(<WaitingConflicts />);
    act(() => {
      editor.conflicts = { b: conflictOn('b', 'My B'), c: { ...conflictOn('c', 'My C'), theirs: null } };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Other admins changed or deleted 2 markers you edited (the first: “My B”)');
  });

  it('counts several, naming the first', async () => {
    render(<WaitingConflicts />);
    act(() => {
      editor.conflicts = { b: conflictOn('b', 'My B'), c: conflictOn('c', 'My C') };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Other admins changed 2 markers you edited (the first: “My B”)');
  });

  it('names an unnamed marker by its type, never by its uid', async () => {
    render(<WaitingConflicts />);
    act(() => {
      editor.conflicts = { '1ba587ff-af16': conflictOn('1ba587ff-af16', '') };
    });
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Another admin changed “Safe (unnamed)” while you edited it');
    expect(notice).not.toHaveTextContent('1ba587ff');
  });
});

describe('WaitingConflicts: a delete of this page that another admin’s change stopped (conflictfix)', () => {
  const deleteConflict = (uid: string, name: string, cause?: 'delete' | 'undo' | 'redo') => ({ ...conflictOn(uid, name), action: 'delete' as const, ...(cause ? { cause } : {}) });

  it('says the admin deleted it, not edited it', async () => {
    render(<WaitingConflicts />);
    act(() => {
      editor.conflicts = { b: deleteConflict('b', 'My B') };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('You deleted “My B”; another admin changed it meanwhile: choose whether it goes.');
  });

  it('says an undo or a redo would delete it', async () => {
    render(<WaitingConflicts />);
    act(() => {
      editor.conflicts = { b: deleteConflict('b', 'My B', 'undo') };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Undo would delete “My B”; another admin changed it since you placed it: choose whether it goes.');
    act(() => {
      editor.conflicts = { b: deleteConflict('b', 'My B', 'redo') };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Redo would delete “My B”; another admin changed it since you brought it back: choose whether it goes.');
    act(() => {
      editor.conflicts = { b: deleteConflict('b', 'My B', 'redo'), c: conflictOn('c', 'My C') };
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Other admins changed 2 markers you edited or deleted (the first: “My B”): choose which versions stay.');
  });
});

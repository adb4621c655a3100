/**
 * An admin's marker popup beside the dock, on a page whose editor is bound to an in-memory admin
 * API (as MarkerEditForm.test.tsx): where the keyboard goes when "Back to them" brings a form
 * back (resumeFocus.ts), and what the popup says of a quest marker whose quest is not followed
 * (it is not drawn on the map then).
 */
import '../../i18n';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { placeMarker, redo, undo } from '../../state/editor';
import { selectMarker } from '../../state/mapView';
import { closeEditRemoved, popup } from '../../state/popup';
import { quests, selectQuests } from '../../state/quests';
import { setSessionUser, type SessionUser } from '../../state/session';
import { safe, exit, admin, setup, open, edit, field, useAdminPopupPage } from './testing/adminPopupPage';

const visitor: SessionUser = { name: 'visitor', admin: false, pro: false, questsDone: [], questsHidden: [] };

useAdminPopupPage();

/** The dock's "Back to them", reached and pressed from the keyboard. */
async function backToThem() {
  const button = within(await screen.findByRole('status')).getByRole('button', { name: 'Back to them' });
  button.focus();
  await userEvent.keyboard('{Enter}');
}

describe('"Back to them" and the keyboard', () => {
  it('after Escape in a field: the form comes back with the focus in the field typed in last', async () => {
    await setup(admin);
    const form = await edit();
    expect(field(form, 'Name (English)')).toHaveFocus();
    await userEvent.click(field(form, 'Description (Russian)'));
    await userEvent.keyboard('За столом');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    await backToThem();
    const again = await screen.findByRole('form', { name: 'Edit marker' });
    expect(field(again, 'Description (Russian)')).toHaveValue('За столом');
    expect(field(again, 'Description (Russian)')).toHaveFocus();
    expect(document.activeElement).not.toBe(document.body);
  });

  it('with nothing typed known (the work came back after a reload, its popup closed): the first field, once the popup opened', async () => {
    await setup(admin);
    // As state/setAsideStore.ts restores it: the dock offers it, no popup open.
    act(() => {
      popup.setAside = { uid: 'm-safe', snapshot: { ...safe, version: 1 }, draft: { ...safe, version: 1, name: 'Office safe 2' } };
    });
    await backToThem();
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    const form = within(dialog).getByRole('form', { name: 'Edit marker' });
    expect(field(form, 'Name when no translation')).toHaveValue('Office safe 2');
    await waitFor(() => expect(field(form, 'Name (English)')).toHaveFocus());
  });

  it('work of another marker than the open one: its popup opens with the focus in its form', async () => {
    await setup(admin);
    let form = await edit();
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    // Another marker opened: the safe's work is set aside.
    await open('m-exit', 'Gate 3');
    await backToThem();
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    form = within(dialog).getByRole('form', { name: 'Edit marker' });
    await waitFor(() => expect(field(form, 'Name (English)')).toHaveFocus());
  });
});

describe('a quest marker whose quest is not followed (not drawn on the map)', () => {
  it('after a Save linking a quest, the popup says why the marker left the map; Follow quest follows it, the keyboard on Edit', async () => {
    const { server } = await setup(admin);
    selectQuests(['q-delivery']);
    const form = await edit('m-exit', 'Gate 3');
    const search = within(form).getByRole('searchbox', { name: 'Find a quest' });
    await userEvent.type(search, 'q-bad-rep{Enter}');
    await userEvent.click(await within(form).findByRole('button', { name: 'Link Bad Rep Evidence' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.writes()).toHaveLength(1));
    const dialog = await screen.findByRole('dialog', { name: 'Gate 3' });
    expect(await within(dialog).findByText('Shown on the map only while the quest “Bad Rep Evidence” is followed.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Follow quest' }));
    expect(quests.selected).toEqual(['q-delivery', 'q-bad-rep']);
    expect(quests.limitNotice).toBe(false);
    await waitFor(() => expect(within(dialog).queryByText(/Shown on the map only while/)).toBeNull());
    expect(within(dialog).queryByRole('button', { name: 'Follow quest' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus();
  });

  it('says nothing when the quest is followed, nor to a visitor; speaks Russian', async () => {
    const questSafe = { ...safe, questUid: 'q-delivery' };
    await setup(visitor, [questSafe, exit]);
    let dialog = await open();
    await within(dialog).findByRole('link', { name: 'Delivery from the Past' });
    expect(within(dialog).queryByRole('button', { name: 'Follow quest' })).toBeNull();

    act(() => setSessionUser(admin));
    expect(await within(dialog).findByRole('button', { name: 'Follow quest' })).toBeInTheDocument();
    act(() => selectQuests(['q-delivery']));
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Follow quest' })).toBeNull());

    act(() => selectQuests([]));
    await act(() => setLanguage('ru'));
    dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    expect(await within(dialog).findByText('На карте видна, только пока выбран квест «Посылка из прошлого».')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Выбрать квест' })).toBeInTheDocument();
  });

  it('with 3 quests followed, Follow quest adds a fourth (admins have no limit), without the limit notice', async () => {
    await setup(admin, [{ ...safe, questUid: 'q-delivery' }]);
    act(() => {
      quests.selected = ['q-a', 'q-b', 'q-c'];
    });
    const dialog = await open();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Follow quest' }));
    expect(quests.selected).toEqual(['q-a', 'q-b', 'q-c', 'q-delivery']);
    expect(quests.limitNotice).toBe(false);
  });
});

describe('back in view mode after Cancel or Save', () => {
  it('the popup shows its top: Edit takes the focus without scrolling the view down to it', async () => {
    const { server } = await setup(admin, [{ ...safe, desc: 'A long description. '.repeat(200) }, exit]);
    for (const button of ['Cancel', 'Save']) {
      const form = await edit();
      if (button === 'Save') await userEvent.type(field(form, 'Name (English)'), ' 2');
      const body = document.querySelector<HTMLElement>('.marker-popup .popup__body')!;
      body.scrollTop = 900;
      const focus = vi.spyOn(HTMLElement.prototype, 'focus');
      await userEvent.click(within(form).getByRole('button', { name: button }));
      const dialog = await screen.findByRole('dialog', { name: button === 'Save' ? 'Office safe 2' : 'Office safe' });
      const editButton = await within(dialog).findByRole('button', { name: 'Edit' });
      await waitFor(() => expect(editButton).toHaveFocus());
      expect(focus.mock.contexts.filter((c) => c === editButton).length).toBeGreaterThan(0);
      for (const [i, context] of focus.mock.contexts.entries()) if (context === editButton) expect(focus.mock.calls[i][0]).toEqual({ preventScroll: true });
      expect(document.querySelector<HTMLElement>('.marker-popup .popup__body')!.scrollTop).toBe(0);
      focus.mockRestore();
    }
    expect(server.writes()).toHaveLength(1);
  });
});

describe('an undo that takes away the marker under the open form', () => {
  /** The page's undo / redo (state/editor.ts: the form follows the step, or closes when it took the marker away). */
  async function step(direction: 'undo' | 'redo') {
    await act(async () => {
      await (direction === 'undo' ? undo() : redo());
    });
  }

  it('closes the form and its popup, the typed work set aside; redo, then "Back to them", brings both back', async () => {
    const { server } = await setup(admin);
    let placed: string | undefined;
    await act(async () => {
      placed = (await placeMarker(700, 800))?.uid;
    });
    act(() => selectMarker(placed!));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }));
    const form = within(dialog).getByRole('form', { name: 'Edit marker' });
    await userEvent.type(field(form, 'Name (English)'), 'Stash');
    const addImage = within(form).getByRole('button', { name: 'Add an image' });
    addImage.focus();
    await step('undo');
    expect(server.stored.has(placed!)).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(popup.mode).toBe('view');
    expect(await screen.findByText(/Your unsaved changes to “Stash” were kept/)).toBeInTheDocument();
    expect(server.writes().filter((w) => w.op === 'add')).toHaveLength(1);
    await step('redo');
    expect(server.stored.has(placed!)).toBe(true);
    await backToThem();
    const again = await screen.findByRole('form', { name: 'Edit marker' });
    expect(field(again, 'Name (English)')).toHaveValue('Stash');
  });

  it('with the popup staying (the form closed, its marker still there), Edit takes the focus, not the page body', async () => {
    await setup(admin);
    const form = await edit();
    within(form).getByRole('button', { name: 'Add an image' }).focus();
    act(() => closeEditRemoved('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus());
  });
});

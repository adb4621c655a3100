/**
 * The edit form from the keyboard: Ctrl+Enter (⌘+Enter) anywhere in it is Save, and
 * Escape in a field that sets typed changes aside says so, so they are not taken for saved.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { popup } from '../../state/popup';
import { LiveAnnouncer } from '../LiveAnnouncer';
import { isSaveKey } from './MarkerEditForm';
import { admin, field, open, safe, setup as setupPage, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

/** The popup's edit form on a page whose editor is bound, with the page's live region. */
async function setup() {
  const { server } = await setupPage(admin, [safe], <LiveAnnouncer />);
  const dialog = await open();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }));
  return { server, form: within(dialog).getByRole('form', { name: 'Edit marker' }) };
}

const live = () => document.querySelector('.live-announcer') as HTMLElement;

describe('the edit form from the keyboard', () => {
  it('Ctrl+Enter is Save and ⌘+Enter too; Enter with Shift or Alt, or alone, is not', () => {
    expect(isSaveKey({ key: 'Enter', ctrlKey: true, metaKey: false, altKey: false, shiftKey: false })).toBe(true);
    expect(isSaveKey({ key: 'Enter', ctrlKey: false, metaKey: true, altKey: false, shiftKey: false })).toBe(true);
    expect(isSaveKey({ key: 'Enter', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false })).toBe(false);
    expect(isSaveKey({ key: 'Enter', ctrlKey: true, metaKey: false, altKey: false, shiftKey: true })).toBe(false);
    expect(isSaveKey({ key: 'Enter', ctrlKey: true, metaKey: false, altKey: true, shiftKey: false })).toBe(false);
  });

  it('Ctrl+Enter in the Name field saves (as Save does), said as a save is; Save names the key', async () => {
    const { server, form } = await setup();
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toHaveAttribute('aria-keyshortcuts', 'Control+Enter Meta+Enter');
    expect(save).toHaveAttribute('title', 'Save (Ctrl+Enter)');
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    // Enter alone saves nothing (a form of many fields).
    await userEvent.keyboard('{Enter}');
    expect(server.writes()).toEqual([]);
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes()).toHaveLength(1);
    expect(server.writes()[0].body).toMatchObject({ uid: 'm-safe', name_l10n: { en: 'Office safe 2', ru: 'Сейф в офисе' } });
    expect(live()).toHaveTextContent(/^Saved$/);
  });

  it('⌘+Enter in a text area saves too', async () => {
    const { server, form } = await setup();
    const desc = within(form).getByRole('textbox', { name: 'Description (English)' });
    await userEvent.type(desc, 'Top shelf');
    await userEvent.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes()).toHaveLength(1);
    expect(server.writes()[0].body).toMatchObject({ desc_l10n: { en: 'Top shelf' } });
  });

  it('Escape in a field with typed changes says they were set aside, not saved; without any, says nothing', async () => {
    const first = await setup();
    await userEvent.type(field(first.form, 'Name (English)'), ' 2');
    await userEvent.keyboard('{Escape}');
    expect(popup.setAside).toMatchObject({ uid: 'm-safe' });
    expect(live()).toHaveTextContent('Not saved: your changes were set aside. “Back to them” in the editor panel brings the form back.');
    expect(first.server.writes()).toEqual([]);
  });

  it('Escape in a field with nothing typed says nothing; in Russian it says so in Russian', async () => {
    const { form } = await setup();
    field(form, 'Name (English)').focus();
    await userEvent.keyboard('{Escape}');
    expect(popup.setAside).toBeNull();
    expect(live()).toHaveTextContent(/^$/);
    await act(async () => void (await setLanguage('ru')));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Изменить' }));
    const again = within(dialog).getByRole('form');
    await userEvent.type(within(again).getByRole('textbox', { name: 'Название (русский)' }), ' 2');
    await userEvent.keyboard('{Escape}');
    expect(live()).toHaveTextContent('Не сохранено: изменения отложены. «Вернуться к ним» на панели редактора вернёт форму.');
  });
});

/**
 * The edit form's own messages (a Save or Delete that failed, an image on another site) follow
 * an EN↔RU switch made while they show: kept as what happened, said at render.
 */
import '../../i18n';
import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EditorCommands } from '../../editor/commands';
import { setLanguage } from '../../i18n';
import { bindEditor, boundEditor } from '../../state/editor';
import { admin, edit, field, setup, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

/** The bound commands with some replaced (a call that throws, which the form says itself). */
function rebind(change: Partial<EditorCommands>): void {
  bindEditor({ ...boundEditor()!, ...change });
}

/** The server could not be reached: a failure the form says in the page's words. */
const offline = { code: 'offline', message: 'the server could not be reached', detail: '' };

const alertText = (form: HTMLElement) => within(form).getByRole('alert').textContent;

describe('the edit form\'s messages after a language switch', () => {
  it('a Save that failed', async () => {
    await setup(admin);
    rebind({ saveMarker: () => Promise.reject(offline) });
    const form = await edit();
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alertText(form)).toBe('Not saved: the server could not be reached. Try again.'));
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(alertText(form)).toBe('Не сохранено: сервер недоступен. Попробуйте ещё раз.'));
    await act(async () => setLanguage('en'));
    await waitFor(() => expect(alertText(form)).toBe('Not saved: the server could not be reached. Try again.'));
  });

  it('a Delete that failed', async () => {
    await setup(admin);
    rebind({ deleteMarker: () => Promise.reject(offline) });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(alertText(form)).toBe('Not deleted: the server could not be reached. Try again.'));
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(alertText(form)).toBe('Не удалено: сервер недоступен. Попробуйте ещё раз.'));
  });

  it('a Delete that did not go through, for no reason the editor gave', async () => {
    await setup(admin);
    rebind({ deleteMarker: () => Promise.resolve(false) });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(alertText(form)).toBe('The marker could not be deleted.'));
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(alertText(form)).toBe('Не удалось удалить метку.'));
  });

  it('a Save refused for an image on another site', async () => {
    await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'URL of image 1'), 'https://evil.example/a.png');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const list = () => form.querySelector('.marker-edit__invalid')!;
    await waitFor(() => expect(list()).toHaveTextContent('“https://evil.example” is another site'));
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(list()).toHaveTextContent('«https://evil.example» — другой сайт'));
    expect(list()).not.toHaveTextContent(/another site/);
  });
});

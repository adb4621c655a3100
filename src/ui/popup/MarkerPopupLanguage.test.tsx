/** The view mode's failed Delete (an admin's) follows an EN↔RU switch made while it shows. */
import '../../i18n';
import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EditorCommands } from '../../editor/commands';
import { setLanguage } from '../../i18n';
import { bindEditor, boundEditor } from '../../state/editor';
import { admin, open, setup, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

function rebind(change: Partial<EditorCommands>): void {
  bindEditor({ ...boundEditor()!, ...change });
}

const adminError = (dialog: HTMLElement) => dialog.querySelector('.marker-popup__admin-error');

describe('the view mode\'s Delete message after a language switch', () => {
  it('a Delete that failed', async () => {
    await setup(admin);
    rebind({ deleteMarker: () => Promise.reject({ code: 'offline', message: 'the server could not be reached', detail: '' }) });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const dialog = await open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(adminError(dialog)).toHaveTextContent('Not deleted: the server could not be reached. Try again.'));
    expect(adminError(dialog)).toHaveAttribute('role', 'alert');
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(adminError(dialog)).toHaveTextContent('Не удалено: сервер недоступен. Попробуйте ещё раз.'));
  });

  it('a Delete that did not go through, for no reason the editor gave', async () => {
    await setup(admin);
    rebind({ deleteMarker: () => Promise.resolve(false) });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const dialog = await open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(adminError(dialog)).toHaveTextContent('The marker could not be deleted.'));
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(adminError(dialog)).toHaveTextContent('Не удалось удалить метку.'));
  });
});

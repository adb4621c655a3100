/**
 * The edit form's objections (src/domain/marker-problem.ts, fieldProblem.ts): each names its field
 * by the label the form shows and says the rule in the page's language, the field at fault is
 * marked (aria-invalid, described by its objection) until it is put right, and a long text shows
 * its count near its bound.
 */
import '../../i18n';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { admin, edit, field, open, setup, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

/** Text pasted into `box` (a paste, as an admin brings a long text: one input event). */
async function paste(box: HTMLElement, text: string) {
  await userEvent.click(box);
  await userEvent.paste(text);
}

const describedBy = (box: HTMLElement) => (box.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);

describe('a text too long for its field', () => {
  it('on a Russian page: named by its label, said in Russian, the field marked until it is shortened', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await act(() => setLanguage('ru'));
    const box = field(form, 'Описание (русский)');
    await paste(box, 'ж'.repeat(5000));
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    const alert = within(form).getByRole('alert');
    expect(alert).toHaveTextContent('Описание (русский): не длиннее 4000 символов.');
    expect(alert).not.toHaveTextContent(/desc_l10n|must be/);
    expect(server.writes()).toEqual([]);
    expect(box).toHaveAttribute('aria-invalid', 'true');
    const message = within(alert).getByText(/^Описание \(русский\)/);
    expect(describedBy(box)).toContain(message.id);
    expect(field(form, 'Описание (английский)')).not.toHaveAttribute('aria-invalid');

    await userEvent.clear(box);
    await paste(box, 'За столом');
    expect(box).not.toHaveAttribute('aria-invalid');
    expect(within(form).queryByRole('alert')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(server.stored.get('m-safe')?.desc_l10n).toEqual({ ru: 'За столом' }));
  });

  it('an image caption too long, in English: "Name of image 1: at most 200 characters."', async () => {
    await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await paste(field(form, 'URL of image 1'), '/uploads/sample/safe-1.webp');
    await paste(field(form, 'Name of image 1'), 'n'.repeat(250));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Name of image 1: at most 200 characters.');
    expect(within(form).getByRole('alert')).not.toHaveTextContent('imgs.0.name');
    expect(field(form, 'Name of image 1')).toHaveAttribute('aria-invalid', 'true');
    expect(field(form, 'URL of image 1')).not.toHaveAttribute('aria-invalid');
  });

  it('is no longer marked once the form is cancelled and opened again', async () => {
    await setup(admin);
    let form = await edit();
    await paste(field(form, 'Name (English)'), 'x'.repeat(300));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(field(form, 'Name (English)')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    const dialog = await open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }));
    form = within(dialog).getByRole('form', { name: 'Edit marker' });
    expect(field(form, 'Name (English)')).not.toHaveAttribute('aria-invalid');
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('waits for the next Save to object to another field typed wrong meanwhile', async () => {
    await setup(admin);
    const form = await edit();
    await paste(field(form, 'Name (English)'), 'x'.repeat(300));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await paste(field(form, 'Description (English)'), 'y'.repeat(4100));
    expect(within(form).getByRole('alert').querySelectorAll('li')).toHaveLength(1);
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect([...within(form).getByRole('alert').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Name (English): at most 200 characters.',
      'Description (English): at most 4000 characters.',
    ]);
  });
});

describe('a character that cannot be saved', () => {
  it('is refused before sending, naming the field (the server would answer in English)', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await paste(field(form, 'Name when no translation'), '\u0000');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(/^Name when no translation: contains a character that cannot be saved/);
    expect(field(form, 'Name when no translation')).toHaveAttribute('aria-invalid', 'true');
    expect(server.writes()).toEqual([]);
  });
});

describe('the count under a long text', () => {
  it('shows from 90 % of the bound, described to the field, and turns to the error colour past it', async () => {
    await setup(admin);
    const form = await edit();
    const box = field(form, 'Description (English)');
    await paste(box, 'a'.repeat(3599));
    expect(within(form).queryByText(/3599/)).toBeNull();
    expect(describedBy(box)).toEqual([]);
    await userEvent.type(box, 'b');
    const count = within(form).getByText('3600 of 4000 characters').parentElement!;
    expect(count).toHaveTextContent('3600 / 4000');
    expect(count).not.toHaveClass('marker-edit__counter--over');
    expect(describedBy(box)).toEqual([count.id]);
    await paste(box, 'c'.repeat(500));
    expect(within(form).getByText('4100 of 4000 characters').parentElement).toHaveClass('marker-edit__counter--over');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

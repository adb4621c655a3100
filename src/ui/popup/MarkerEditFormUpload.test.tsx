/**
 * Image uploads from the edit form against a server that checks the image an upload names
 * (src/editor/testing/fakes.ts, as server/routes/admin.ts): another admin's change of the
 * images refuses it (409) and the form takes their images, the admin's typed changes kept;
 * rows moved, removed or added before the upload get the file where the admin sees them, and
 * the Save keeps that order.
 */
import '../../i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Marker } from '../../domain/marker';
import { setLanguage } from '../../i18n';
import { popup } from '../../state/popup';
import { admin, edit, exit, field, safe, setup, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

const A = { img: '/uploads/markers/m-safe-0-a.png', name: 'Cache 1/2', desc: 'Left' };
const B = { img: '/uploads/markers/m-safe-1-b.png', name: 'Cache 2/2', desc: '' };
const pictured: Marker = { ...safe, imgs: [A, B] };
const png = (name = 'door.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
const rows = (form: HTMLElement) => within(form).queryAllByRole('textbox', { name: /^URL of image \d+$/ }).map((input) => (input as HTMLInputElement).value);
const save = async (form: HTMLElement) => {
  await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit marker' })).toBeNull());
};

describe('an upload another admin’s change of the images refused (409)', () => {
  it('takes their images into the form, keeps what the admin typed, says what they did; a retry and a Save then go through', async () => {
    const { server } = await setup(admin, [pictured, exit]);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    // Another admin removes "Cache 1/2" (this page hears nothing of it).
    server.seed({ ...server.stored.get('m-safe')!, imgs: [B] });

    await userEvent.upload(within(form).getByLabelText('Upload a file for image 1'), png());
    const note = await within(form).findByRole('alert', { name: 'Another admin changed this marker: nothing was uploaded' });
    expect(note).toHaveTextContent('The file for image 1 was not uploaded and nothing was replaced. The form now shows their images; your other unsaved changes are kept.');
    expect(within(note).getByRole('list')).toHaveTextContent('Image removed: Cache 1/2');
    expect(rows(form)).toEqual([B.img]);
    expect(field(form, 'Name of image 1')).toHaveValue('Cache 2/2');
    expect(field(form, 'Name (English)')).toHaveValue('My safe');
    expect(popup.snapshot?.version).toBe(2);
    // Said in the page's language, at render.
    await setLanguage('ru');
    expect(await within(form).findByRole('alert', { name: 'Другой админ изменил эту метку: файл не загружен' })).toHaveTextContent(
      'Теперь в форме его изображения, а остальные ваши несохранённые правки остались.',
    );
    await setLanguage('en');

    // The retry names the image the server has: stored, no second 409.
    await userEvent.upload(within(form).getByLabelText('Upload a file for image 1'), png('again.png'));
    expect(await within(form).findByText('Image 1 uploaded.')).toBeInTheDocument();
    expect(within(form).queryByRole('alert', { name: /nothing was uploaded/ })).toBeNull();
    await save(form);
    expect(server.stored.get('m-safe')).toMatchObject({
      name_l10n: { en: 'My safe', ru: 'Сейф в офисе' },
      imgs: [{ img: '/img/markers/m-safe-0-again.png', name: 'Cache 2/2', desc: '' }],
    });
    expect(server.writes().map((w) => w.op)).toEqual(['upload', 'upload', 'update']);
  });

  it('says when the admin’s own unsaved image changes gave way to theirs', async () => {
    const { server } = await setup(admin, [pictured, exit]);
    const form = await edit();
    await userEvent.type(field(form, 'Name of image 2'), ' (top)');
    server.seed({ ...server.stored.get('m-safe')!, imgs: [A, { ...B, img: '/uploads/markers/m-safe-1-theirs.png' }] });
    await userEvent.upload(within(form).getByLabelText('Upload a file for image 2'), png());
    const note = await within(form).findByRole('alert', { name: 'Another admin changed this marker: nothing was uploaded' });
    expect(within(note).getByRole('list')).toHaveTextContent('Image 2, new file: m-safe-1-b.png → m-safe-1-theirs.png');
    expect(note).toHaveTextContent('Your own unsaved changes to the images gave way to theirs.');
    expect(field(form, 'Name of image 2')).toHaveValue('Cache 2/2');
    expect(rows(form)).toEqual([A.img, '/uploads/markers/m-safe-1-theirs.png']);
  });
});

describe('an upload into rows the admin moved, removed or added (not saved yet)', () => {
  it('replaces the image the row shows, and the Save keeps the order the form shows', async () => {
    const { server } = await setup(admin, [pictured, exit]);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Move image 2 up' }));
    expect(rows(form)).toEqual([B.img, A.img]);
    // Row 1 shows "Cache 2/2", stored second.
    await userEvent.upload(within(form).getByLabelText('Upload a file for image 1'), png());
    expect(await within(form).findByText('Image 1 uploaded.')).toBeInTheDocument();
    // (The fake server keeps no name on an upload; the real one keeps it.)
    expect(server.stored.get('m-safe')?.imgs).toEqual([A, { img: '/img/markers/m-safe-1-door.png', name: '', desc: '' }]);
    expect(rows(form)).toEqual(['/img/markers/m-safe-1-door.png', A.img]);
    expect(field(form, 'Name of image 1')).toHaveValue('Cache 2/2');
    await save(form);
    expect(server.stored.get('m-safe')?.imgs).toEqual([{ ...B, img: '/img/markers/m-safe-1-door.png' }, A]);
  });

  it('adds a new row’s file as a new image, whatever rows before it were removed', async () => {
    const { server } = await setup(admin, [pictured, exit]);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Remove image 1' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'Name of image 2'), 'Inside');
    await userEvent.upload(within(form).getByLabelText('Upload a file for image 2'), png());
    expect(await within(form).findByText('Image 2 uploaded.')).toBeInTheDocument();
    // Nothing stored was replaced: "Cache 2/2" stays, the file is a new image.
    expect(server.stored.get('m-safe')?.imgs).toEqual([A, B, { img: '/img/markers/m-safe-2-door.png', name: '', desc: '' }]);
    expect(rows(form)).toEqual([B.img, '/img/markers/m-safe-2-door.png']);
    await save(form);
    expect(server.stored.get('m-safe')?.imgs).toEqual([B, { img: '/img/markers/m-safe-2-door.png', name: 'Inside', desc: '' }]);
  });
});

/**
 * An upload names the image it replaces (the edit's stored marker at that index, null for a new
 * one), and a 409 (another admin changed that image meanwhile: nothing stored, nothing replaced)
 * says so at the image, in the page's language.
 */
import '../../i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConflictError } from '../../api/admin';
import type { Marker } from '../../domain/marker';
import { EditorError } from '../../editor/commands';
import { setLanguage } from '../../i18n';
import { popup } from '../../state/popup';
import { isUploadConflict, ImagesField, uploadSlot } from './ImagesField';

/** Each upload's uid, index and the image it names as replaced (its 6th argument). */
const named = vi.hoisted(() => [] as unknown[][]);
const upload = vi.hoisted(() => ({ next: (): Promise<unknown> => Promise.reject(new Error('not set')) }));
vi.mock('../../state/editor', async (original) => ({
  ...(await original<typeof import('../../state/editor')>()),
  uploadImage: (...args: unknown[]) => {
    named.push([args[0], args[1], args[5]]);
    return upload.next();
  },
}));

const image = (img: string, name = '') => ({ img, name, desc: '' });
const base = { uid: 'm1', imgs: [image('/uploads/markers/m1-0-a.png?v=1', 'Cache 1/2'), image('/uploads/markers/m1-1-b.png?v=2', 'Cache 2/2')], version: 1 } as Marker;
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'door.png', { type: 'image/png' });
/** What the editor passes on for the server's 409: the API's ConflictError as it came (src/editor/commands.ts). */
const conflict = () => new ConflictError('/api/be/admin/maps/marker/upload/base64', 'marker "m1" was changed meanwhile: the upload was meant for image 0 (…), but image 0 is … (version 2)', { ...base, version: 2 });

describe('uploadSlot and isUploadConflict', () => {
  it('names the stored image the row shows, wherever it is stored; a new one at the end; the row itself without a base', () => {
    expect(uploadSlot(base, 'm1', [...base.imgs, image('')], 1)).toEqual({ index: 1, replaces: '/uploads/markers/m1-1-b.png?v=2' });
    expect(uploadSlot(base, 'm1', [...base.imgs, image('')], 2)).toEqual({ index: 2, replaces: null });
    expect(uploadSlot(base, 'm1', [base.imgs[1], base.imgs[0]], 0)).toEqual({ index: 1, replaces: '/uploads/markers/m1-1-b.png?v=2' });
    expect(uploadSlot(base, 'm1', [image(''), base.imgs[1]], 0)).toEqual({ index: 2, replaces: null });
    expect(uploadSlot(null, 'm1', [image('/a.png'), image('')], 0)).toEqual({ index: 0, replaces: '/a.png' });
    expect(uploadSlot({ ...base, uid: 'other' }, 'm1', [image('')], 0)).toEqual({ index: 0, replaces: null });
  });

  it('knows a 409 by its type, not by words in a message', () => {
    expect(isUploadConflict(conflict())).toBe(true);
    expect(isUploadConflict(new EditorError({ code: 'uploadFailed', message: 'Upload failed', detail: 'marker "m1" was changed meanwhile' }))).toBe(false);
    expect(isUploadConflict({ status: 409, message: 'x' })).toBe(false);
    expect(isUploadConflict({ code: 'uploadFailed', detail: 'disk full' })).toBe(false);
    expect(isUploadConflict(null)).toBe(false);
  });
});

describe('ImagesField upload', () => {
  beforeEach(() => {
    named.length = 0;
    popup.snapshot = structuredClone(base);
  });
  afterEach(async () => {
    popup.snapshot = null;
    await setLanguage('en');
  });

  it('names the image it replaces, and a new one as null', async () => {
    upload.next = () => Promise.reject(new Error('disk full'));
    render(<ImagesField uid="m1" imgs={[...base.imgs, image('')]} onChange={() => {}} />);
    await userEvent.upload(screen.getByLabelText('Upload a file for image 1'), png());
    expect(await screen.findByRole('alert')).toHaveTextContent('The upload failed, nothing was changed');
    await userEvent.upload(screen.getByLabelText('Upload a file for image 3'), png());
    expect(named).toEqual([
      ['m1', 0, '/uploads/markers/m1-0-a.png?v=1'],
      ['m1', 2, null],
    ]);
  });

  it('without an edit of that marker to take their images into, says at the image that another admin changed it (409), in English and Russian', async () => {
    upload.next = () => Promise.reject(conflict());
    const { unmount } = render(<ImagesField uid="m1" imgs={base.imgs} onChange={() => {}} />);
    await userEvent.upload(screen.getByLabelText('Upload a file for image 1'), png());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Another admin changed this marker: image 1 on the server is no longer the one this form shows, so nothing was uploaded or replaced.',
    );
    unmount();
    await setLanguage('ru');
    render(<ImagesField uid="m1" imgs={base.imgs} onChange={() => {}} />);
    await userEvent.upload(screen.getByLabelText('Загрузить файл для изображения 1'), png());
    expect(await screen.findByRole('alert')).toHaveTextContent('Другой администратор изменил эту метку: изображение 1 на сервере уже не то');
  });
});

/**
 * The image an upload replaces travels the real call path, as an argument: ImagesField →
 * state/editor.ts uploadImage → the editor's queue (src/editor/commands.ts) → src/api/admin.ts
 * uploadMarkerImage → the request body's `replaces`. The server's 409 comes back the same way,
 * typed (ConflictError), and the form says another admin changed the image.
 */
import '../../i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApiBase } from '../../api/client';
import type { Marker } from '../../domain/marker';
import { createPageEditorCommands } from '../../editor';
import { fakeSink, marker } from '../../editor/testing/fakes';
import { bindEditor } from '../../state/editor';
import { popup } from '../../state/popup';
import { TEST_API_BASE } from '../map/testing/mapApi';
import { ImagesField } from './ImagesField';

const image = (img: string, name = '') => ({ img, name, desc: '' });
const base: Marker = marker('m1', { imgs: [image('/uploads/markers/m1-0-a.png?v=1', 'Cache 1/2'), image('/uploads/markers/m1-1-b.png?v=2', 'Cache 2/2')], version: 1 });
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'door.png', { type: 'image/png' });

/** Upload bodies the server received. */
const bodies: { uid?: string; replaces?: string | null }[] = [];
/** The image the server has at each index: an upload naming another one is refused (409). */
let onServer: (string | null)[] = [];
const server = setupServer(
  http.post(`${TEST_API_BASE}/api/be/admin/maps/marker/upload/base64`, async ({ request }) => {
    const body = (await request.json()) as { uid: string; replaces?: string | null };
    bodies.push({ uid: body.uid, ...('replaces' in body ? { replaces: body.replaces } : {}) });
    const index = Number(body.uid.slice(body.uid.lastIndexOf('-') + 1));
    const stored = { ...base, version: 2, imgs: onServer.filter((img) => img !== null).map((img) => image(img)) };
    if ((onServer[index] ?? null) !== body.replaces) {
      return HttpResponse.json({ error: 'conflict', message: `marker "m1" was changed meanwhile: the upload was meant for image ${index}`, marker: stored }, { status: 409 });
    }
    const fileUrl = `/uploads/markers/m1-${index}-new.png?v=3`;
    const imgs = [...stored.imgs];
    imgs[index] = image(fileUrl);
    return HttpResponse.json({ marker: { ...stored, imgs }, fileUrl });
  }),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setApiBase(TEST_API_BASE);
});
beforeEach(() => {
  bodies.length = 0;
  onServer = base.imgs.map((i) => i.img);
  popup.snapshot = structuredClone(base);
  bindEditor(createPageEditorCommands({ mapId: 'customs', sink: fakeSink([base]).sink }));
});
afterEach(() => {
  bindEditor(null);
  popup.snapshot = null;
  server.resetHandlers();
});
afterAll(() => {
  server.close();
  setApiBase('');
});

describe('ImagesField upload through the editor', () => {
  it('sends the image it replaces in the request body, and null for a new image', async () => {
    render(<ImagesField uid="m1" imgs={[...base.imgs, image('')]} onChange={() => {}} />);
    await userEvent.upload(screen.getByLabelText('Upload a file for image 2'), png());
    expect(await screen.findByText('Image 2 uploaded.')).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Upload a file for image 3'), png());
    expect(await screen.findByText('Image 3 uploaded.')).toBeInTheDocument();
    expect(bodies).toEqual([
      { uid: 'm1-1', replaces: '/uploads/markers/m1-1-b.png?v=2' },
      { uid: 'm1-2', replaces: null },
    ]);
  });

  it('says at the image that another admin changed it when the server answers 409', async () => {
    // Another admin replaced image 1 meanwhile.
    onServer[0] = '/uploads/markers/m1-0-theirs.png?v=2';
    render(<ImagesField uid="m1" imgs={base.imgs} onChange={() => {}} />);
    await userEvent.upload(screen.getByLabelText('Upload a file for image 1'), png());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Another admin changed this marker: image 1 on the server is no longer the one this form shows, so nothing was uploaded or replaced.',
    );
    expect(bodies).toEqual([{ uid: 'm1-0', replaces: '/uploads/markers/m1-0-a.png?v=1' }]);
  });
});

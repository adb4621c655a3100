/**
 * The edit form's Save with an image on another site (src/domain/image-source.ts): the field says
 * so, and Save says it again instead of sending what the server would refuse; an image the marker
 * had when the edit began stays allowed, as the server keeps it. A Save that does not go through
 * brings its message into view.
 */
import '../../i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { offline } from '../../editor/testing/fakes';
import { admin, edit, field, safe, setup, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

describe('Save with an image on another site', () => {
  it('is not sent: the form says why, and a URL on this site then saves', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'URL of image 1'), 'https://evil.example/a.png');
    const writes = server.writes().length;
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form).getAllByText(/“https:\/\/evil.example” is another site/)).toHaveLength(2));
    expect(server.writes()).toHaveLength(writes);
    await userEvent.clear(field(form, 'URL of image 1'));
    await userEvent.type(field(form, 'URL of image 1'), '/uploads/sample/safe-1.webp');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.stored.get('m-safe')?.imgs).toEqual([expect.objectContaining({ img: '/uploads/sample/safe-1.webp' })]));
  });

  it('keeps an image the marker had, wherever it is', async () => {
    const { server } = await setup(admin, [{ ...safe, imgs: [{ img: 'https://old.example/a.png', name: 'Old', desc: '' }] }]);
    const form = await edit();
    await userEvent.type(field(form, 'Description when no translation'), ', left');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.stored.get('m-safe')?.desc).toBe('Behind the desk, left'));
    expect(screen.queryByRole('form', { name: 'Edit marker' })).toBeNull();
  });
});

describe('a Save that does not go through', () => {
  it('brings its message, at the top of the form, into view (the form may be scrolled far below it)', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.type(field(form, 'Description when no translation'), ', left');
    server.failNext('update', offline());
    // jsdom lays nothing out and has no scrollIntoView: recorded here.
    const shown: Element[] = [];
    const proto = Element.prototype as { scrollIntoView?: unknown };
    const had = proto.scrollIntoView;
    proto.scrollIntoView = vi.fn(function (this: Element) {
      shown.push(this);
    });
    try {
      await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(shown.some((el) => el.classList.contains('marker-edit__status') && /not saved/.test(el.textContent ?? ''))).toBe(true));
    } finally {
      if (had === undefined) delete proto.scrollIntoView;
      else proto.scrollIntoView = had;
    }
  });
});

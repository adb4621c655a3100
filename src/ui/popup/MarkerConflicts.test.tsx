/**
 * Conflicts an admin meets with another admin's change (docs/DECISIONS.md "Delete conflicts,
 * untouched forms and undo"), in the popup and the dock, on a page whose editor is bound to an
 * in-memory admin API (as MarkerPopupAdmin.test.tsx): a delete refused because the marker
 * changed is said as a delete, with buttons that say what they do; an edit form with nothing
 * typed follows their change without asking; an undo of a place never deletes their change
 * unasked.
 */
import '../../i18n';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Marker } from '../../domain/marker';
import { fakeServer } from '../../editor/testing/fakes';
import { editor, moveMarker, placeMarker, receiveRemoteChange, undo } from '../../state/editor';
import { mapView } from '../../state/mapView';
import { admin, setup, open, edit, field, useAdminPopupPage } from './testing/adminPopupPage';

useAdminPopupPage();

/** Another admin's write, and its live event reaching this page. */
async function theirChange(server: ReturnType<typeof fakeServer>, uid: string, patch: Partial<Marker>, heard = true) {
  const theirs = server.seed({ ...server.stored.get(uid)!, ...patch });
  if (heard) await act(async () => void (await receiveRemoteChange({ kind: 'upsert', map: 'factory', marker: theirs, by: 'bob' })));
  return theirs;
}

describe('a delete refused because another admin changed the marker', () => {
  /**
   * The office safe changed by another admin, unheard here (the live feed was cut), then deleted
   * from its popup (confirmed): the server refuses the delete. Answers the conflict box.
   */
  async function refusedDelete() {
    const { server } = await setup(admin);
    const dialog = await open();
    await theirChange(server, 'm-safe', { desc: 'Under the desk' }, false);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const box = await screen.findByRole('alert', { name: 'You deleted this marker; another admin changed it' });
    return { server, box };
  }

  it('says the admin deleted it and what they changed; "Delete anyway" deletes it on their version', async () => {
    const { server, box } = await refusedDelete();
    // The popup closed as the marker left, and opens again on it with the choice (the dock does
    // not repeat it): "deleted", not "edited".
    expect(mapView.selectedUid).toBe('m-safe');
    expect(screen.queryByRole('button', { name: 'Show' })).toBeNull();
    expect(box).toHaveTextContent('You deleted “Office safe”; another admin changed it meanwhile. Their change:');
    expect(box).not.toHaveTextContent('Keep mine puts them on their version');
    const row = within(box).getByRole('row', { name: /Description/ });
    expect(row).toHaveTextContent('Behind the desk');
    expect(row).toHaveTextContent('Under the desk');
    expect(within(box).queryByRole('button', { name: 'Keep mine' })).toBeNull();
    await userEvent.click(within(box).getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(server.stored.has('m-safe')).toBe(false));
    expect(editor.conflicts).toEqual({});
    vi.restoreAllMocks();
  });

  it('"Keep their marker" leaves their version and sends nothing', async () => {
    const { server, box } = await refusedDelete();
    const writes = server.writes().length;
    await userEvent.click(within(box).getByRole('button', { name: 'Keep their marker' }));
    await waitFor(() => expect(editor.conflicts).toEqual({}));
    expect(server.writes()).toHaveLength(writes);
    expect(server.stored.get('m-safe')).toMatchObject({ desc: 'Under the desk' });
    vi.restoreAllMocks();
  });
});

describe('an edit form with nothing typed', () => {
  it('follows another admin’s change: their values in the fields, no choice asked, Save not held', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await theirChange(server, 'm-safe', { desc: 'Under the desk', name_l10n: { en: 'Office safe', ru: 'Сейф' } });
    await waitFor(() => expect(field(form, 'Description when no translation')).toHaveValue('Under the desk'));
    expect(field(form, 'Name (Russian)')).toHaveValue('Сейф');
    expect(screen.queryByRole('button', { name: 'Keep mine' })).toBeNull();
    expect(editor.conflicts).toEqual({});
    expect(within(form).getByText('Updated with another admin’s change.')).toHaveAttribute('role', 'status');
    // A typed change now is saved on their version, theirs kept.
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.stored.get('m-safe')).toMatchObject({ name_l10n: { en: 'Safe', ru: 'Сейф' }, desc: 'Under the desk', version: 3 }));
    expect(editor.conflicts).toEqual({});
  });

  it('keeps a level field being typed (emptied, not yet a number) as it follows their change', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    const level = within(form).getByRole('spinbutton', { name: /Level/ });
    await userEvent.clear(level);
    await theirChange(server, 'm-safe', { desc: 'Under the desk', level: 3 });
    await waitFor(() => expect(field(form, 'Description when no translation')).toHaveValue('Under the desk'));
    expect(level).toHaveValue(null);
    await userEvent.type(level, '0');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.stored.get('m-safe')).toMatchObject({ level: 0, desc: 'Under the desk', version: 3 }));
    expect(editor.conflicts).toEqual({});
  });

  it('with a typed change it is still a conflict (nothing typed is lost)', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.type(field(form, 'Description when no translation'), ', left');
    await theirChange(server, 'm-safe', { desc: 'Under the desk' });
    expect(await within(form).findByRole('button', { name: 'Keep mine' })).toBeInTheDocument();
    expect(field(form, 'Description when no translation')).toHaveValue('Behind the desk, left');
  });
});

describe('undo of a place after another admin changed the marker', () => {
  it('asks before the delete takes their change, even after the page wrote on their version', async () => {
    const { server } = await setup(admin);
    let placed: Marker | null = null;
    await act(async () => void (placed = await placeMarker(700, 800)));
    const uid = placed!.uid;
    await act(() => moveMarker(uid, { x: 720, y: 820 }));
    await theirChange(server, uid, { name_l10n: { ru: 'Их метка' } });
    await act(() => undo()); // the move: restored on their version
    await act(() => undo()); // the place
    await waitFor(() => expect(editor.conflicts[uid]).toBeDefined());
    expect(server.stored.get(uid)).toMatchObject({ name_l10n: { ru: 'Их метка' } });
    expect(await screen.findByText('Undo would delete “Marker (unnamed)”; another admin changed it since you placed it: choose whether it goes.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    const box = await screen.findByRole('alert', { name: 'Undo would delete this marker; another admin changed it' });
    expect(box).toHaveTextContent('another admin changed it since you placed it');
    expect(within(box).getByRole('row', { name: /Name \(Russian\)/ })).toHaveTextContent('Их метка');
    await userEvent.click(within(box).getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(server.stored.has(uid)).toBe(false));
  });
});

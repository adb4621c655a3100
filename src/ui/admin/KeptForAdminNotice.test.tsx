import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { createEditorCommands } from '../../editor/commands';
import { fakeServer, fakeSink, flush, marker } from '../../editor/testing/fakes';
import { i18n } from '../../i18n';
import { bindEditor, boundEditor, resetEditor, saveMarker } from '../../state/editor';
import { closeAccountDialog, layout } from '../../state/layout';
import { cancelEdit, popup, resetPopup, setDraft, startEdit } from '../../state/popup';
import { resetSession, session } from '../../state/session';
import { keepSetAsideAcrossReloads } from '../../state/setAsideStore';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { keptForAdmin, loadKeptForAdmin, resetKeptForAdmin, signInToSave } from '../map/signInToSave';
import { KeptForAdminNotice } from './KeptForAdminNotice';
import { SetAsideNotice } from './SetAsideNotice';

const kept = (uid: string) => ({ uid, base: marker(uid, { version: 1 }), marker: marker(uid, { version: 1, geometry: { x: 1, y: 1 } }), basedOn: 1 });
const user = (admin: boolean) => ({ name: admin ? 'ann' : 'bob', admin, pro: !admin, questsDone: [], questsHidden: [] });

beforeEach(async () => {
  await i18n.changeLanguage('en');
  resetSession();
  resetKeptForAdmin();
  closeAccountDialog();
});
afterEach(async () => {
  resetSession();
  resetKeptForAdmin();
  closeAccountDialog();
  await i18n.changeLanguage('en');
});

describe('KeptForAdminNotice', () => {
  it('tells an account without admin rights that its map changes were not saved, and why', async () => {
    session.user = user(false);
    keptForAdmin.changes = [kept('m1'), kept('m2')];
    render(<KeptForAdminNotice mapId="customs" />);
    expect(screen.getByRole('alert')).toHaveTextContent('2 map changes were not saved: this account may not edit the map. They are kept on this page; sign in as an admin and they are saved.');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in as admin' }));
    expect(layout.accountDialog).toBe('signIn');
  });

  it('says it in Russian, and says the session ended where nobody is signed in', async () => {
    keptForAdmin.changes = [kept('m1')];
    await i18n.changeLanguage('ru');
    render(<KeptForAdminNotice mapId="customs" />);
    expect(screen.getByRole('alert')).toHaveTextContent('1 изменение карты не сохранено: сеанс администратора завершён.');
  });

  it('Discard drops them; an admin (whose editor has them) is shown nothing', async () => {
    session.user = user(false);
    keptForAdmin.changes = [kept('m1')];
    render(<KeptForAdminNotice mapId="customs" />);
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(keptForAdmin.changes).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => {
      keptForAdmin.changes = [kept('m1')];
      session.user = user(true);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('KeptForAdminNotice, per map and across a reload', () => {
  afterEach(() => setStorageBackend(null));

  it('counts the changes of the map shown; another map’s stay kept', async () => {
    session.user = user(false);
    const woods = { ...kept('w1'), base: marker('w1', { map: 'woods', version: 1 }), marker: null };
    keptForAdmin.changes = [kept('m1'), woods];
    render(<KeptForAdminNotice mapId="customs" />);
    expect(screen.getByRole('alert')).toHaveTextContent('1 map change was not saved');
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(keptForAdmin.changes.map((change) => change.uid)).toEqual(['w1']);
  });

  it('a reload of the tab shows the same notice, with the same count', async () => {
    setStorageBackend(memoryStorage());
    session.user = user(false);
    const server = fakeServer();
    server.seed(marker('m1'));
    server.seed(marker('m2'));
    const page = fakeSink([...server.stored.values()]);
    const commands = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
    bindEditor(commands);
    session.user = user(true);
    const stop = signInToSave(commands, { ask: () => undefined });
    const refused = () => new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first');
    server.failNext('update', refused());
    server.failNext('delete', refused());
    await commands.moveMarker('m1', { x: 1, y: 1 });
    await commands.deleteMarker('m2');
    session.user = user(false);
    stop();
    bindEditor(null);
    commands.dispose();
    const first = render(<KeptForAdminNotice mapId="customs" />);
    const said = screen.getByRole('alert').textContent;
    expect(said).toContain('2 map changes were not saved');
    first.unmount();

    act(() => {
      keptForAdmin.changes = []; // the page's memory is gone; the tab's store is not
      loadKeptForAdmin();
    });
    render(<KeptForAdminNotice mapId="customs" />);
    expect(screen.getByRole('alert').textContent).toBe(said);
    resetEditor();
  });
});

describe('an open edit form’s refused save is offered once, not twice', () => {
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });

  afterEach(() => {
    resetPopup();
    resetEditor();
    setStorageBackend(null);
  });

  /** The admin's editor as the map page opens it (state/setAsideStore.ts first, as wireEditor does). */
  function openEditor(server: ReturnType<typeof fakeServer>, page: ReturnType<typeof fakeSink>) {
    const stopKeeping = keepSetAsideAcrossReloads('customs', win, doc);
    const commands = createEditorCommands({ api: server.api, sink: page.sink, mapId: 'customs' });
    bindEditor(commands);
    const stop = signInToSave(commands, { ask: () => undefined });
    return () => {
      stopKeeping();
      stop();
      bindEditor(null);
      commands.dispose();
    };
  }

  /** An admin's open form: a name typed and saved; the save refused because the session ended. The form stays open. */
  async function refusedFormSave() {
    setStorageBackend(memoryStorage());
    session.user = user(true);
    const server = fakeServer();
    const stored = server.seed(marker('m1', { name: 'Old' }));
    const page = fakeSink([stored]);
    const closeFirst = openEditor(server, page);
    startEdit(stored);
    setDraft({ ...popup.draft!, name: 'Typed' });
    server.failNext('update', new ApiError('/api/be/admin/marker', 401, 'unauthorized', 'sign in first'));
    const saved = await saveMarker({ ...popup.draft! });
    return { server, stored, page, closeFirst, saved };
  }

  it('the notice counts it while no admin is signed in; the admin signing in has it sent, and the dock does not offer it back', async () => {
    const { server, page, closeFirst, saved } = await refusedFormSave();
    expect(saved).toBeNull();

    // A pro signs in: the editor closes (its form work stored for the next admin page), the popup drops the edit.
    act(() => {
      session.user = user(false);
    });
    closeFirst();
    cancelEdit();
    render(
      <>
        <KeptForAdminNotice mapId="customs" />
        <SetAsideNotice />
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('1 map change was not saved');

    // An admin signs in on the page.
    act(() => {
      session.user = user(true);
    });
    let closeNext = () => undefined as void;
    await act(async () => {
      closeNext = openEditor(server, page);
      await flush();
      await boundEditor()?.settle();
      await flush();
    });
    expect(server.stored.get('m1')).toMatchObject({ name: 'Typed', version: 2 });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Back to them' })).toBeNull();
    expect(popup.setAside).toBeNull();
    closeNext();
  });

  it('work typed beyond the refused save is still offered back', async () => {
    const { server, page, closeFirst } = await refusedFormSave();
    setDraft({ ...popup.draft!, name: 'Typed', desc: 'More' }); // typed after the save was refused
    session.user = user(false);
    closeFirst();
    cancelEdit();
    session.user = user(true);
    const closeNext = openEditor(server, page);
    await flush();
    await boundEditor()?.settle();
    expect(server.stored.get('m1')).toMatchObject({ name: 'Typed', desc: '' });
    expect(popup.setAside).toMatchObject({ uid: 'm1', draft: expect.objectContaining({ desc: 'More' }) });
    closeNext();
  });
});

import '../../i18n';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { marker } from '../../editor/testing/fakes';
import { i18n } from '../../i18n';
import { closeAccountDialog, layout } from '../../state/layout';
import { resetSession, session } from '../../state/session';
import { keptForAdmin, resetKeptForAdmin } from '../map/signInToSave';
import { KeptForAdminNotice } from './KeptForAdminNotice';

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
    render(<KeptForAdminNotice />);
    expect(screen.getByRole('alert')).toHaveTextContent('2 map changes were not saved: this account may not edit the map. They are kept on this page; sign in as an admin and they are saved.');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in as admin' }));
    expect(layout.accountDialog).toBe('signIn');
  });

  it('says it in Russian, and says the session ended where nobody is signed in', async () => {
    keptForAdmin.changes = [kept('m1')];
    await i18n.changeLanguage('ru');
    render(<KeptForAdminNotice />);
    expect(screen.getByRole('alert')).toHaveTextContent('1 изменение карты не сохранено: сеанс администратора завершён.');
  });

  it('Discard drops them; an admin (whose editor has them) is shown nothing', async () => {
    session.user = user(false);
    keptForAdmin.changes = [kept('m1')];
    render(<KeptForAdminNotice />);
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

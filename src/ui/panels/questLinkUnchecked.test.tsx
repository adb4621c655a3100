/**
 * A `?quest=` link of more than 3 quests opened where GET /api/be/user fails (a 5xx, not a 401):
 * the user may well be pro, so the link is not cut for good with "About Pro" as a visitor's is.
 * The first 3 are followed, the others wait (still in the address); the page says the account
 * could not be checked, with Try again; the server's next answer follows the rest for pro.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import type { Quest } from '../../domain/quests';
import { setLanguage } from '../../i18n';
import { resetLookups } from '../../state/items';
import { closeUpsell, layout } from '../../state/layout';
import { quests, resetQuests } from '../../state/quests';
import { loadSession, resetSession, session } from '../../state/session';
import { resetSettings } from '../../state/settings';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer, failingUserCheck } from '../map/testing/mapApi';
import { setSignedInHint, useMapPage } from '../map/testing/mapPageTest';
import { renderReadyMap as readyMap } from '../map/testing/readyMap';
import { questLinkUnchecked } from '../quests/questLinkUnchecked';

vi.mock('../../engine/index', () => import('../map/testing/engineModuleMock'));
vi.mock('../map/markerSource', () => ({ createMarkerSource: () => createLocalMarkerSource() }));

const quest = (uid: string, name: string): Quest => ({ uid, name, ruName: name, trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' });
const questList = [quest('q-delivery', 'Delivery From the Past'), quest('q-checking', 'Checking'), quest('q-shortage', 'Shortage'), quest('q-debut', 'Debut')];
const server = useMapPage({ markers: [], quests: questList, questMaps: {} });

const proUser: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
const LINK = '/map/factory?quest=q-debut,q-shortage,q-checking,q-delivery';
const ALL = ['q-debut', 'q-shortage', 'q-checking', 'q-delivery'];

beforeEach(() => {
  resetQuests();
  resetLookups();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  resetSession();
  resetSettings();
  setSignedInHint(false);
  closeUpsell();
  await setLanguage('en');
  vi.restoreAllMocks();
});

/** `user`'s server (pro by default) whose GET /api/be/user answers 500 until `recover()`; the link opened. */
async function linkWhereUncheckable(user: AccountUser = proUser) {
  const check = failingUserCheck();
  server.use(check.handler, ...accountServer(user).handlers);
  const view = await readyMap(LINK);
  await waitFor(() => expect(session.status).toBe('error'));
  return { ...view, check };
}

describe('a quest link of more than 3 where the account could not be checked', () => {
  it('follows the first 3, keeps the rest in the address, says so with Try again (no About Pro); Try again follows all once the server says pro', async () => {
    const { router, check } = await linkWhereUncheckable();
    const notice = await screen.findByRole('dialog', { name: 'Quest limit' });
    expect(notice).toHaveTextContent('This link follows 4 quests; following more than 3 at once needs Pro.');
    expect(within(notice).getByRole('alert')).toHaveTextContent(
      'Your account could not be checked (the server did not answer), so only the first 3 are followed for now; the other one is added once it is checked.',
    );
    expect(within(notice).queryByRole('button', { name: 'About Pro' })).toBeNull();
    expect(quests.limitNotice).toBe(false);
    expect(quests.selected).toEqual(['q-debut', 'q-shortage', 'q-checking']);
    // Not cut for good: the address still names the fourth, so a reload or a copy asks again.
    const linked = () => new URLSearchParams(router.state.location.search).getAll('quest');
    await waitFor(() => expect(linked()).toEqual([ALL.join(',')]));
    expect(check.failed.count).toBe(1);

    check.recover();
    await userEvent.click(within(notice).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(quests.selected).toEqual(ALL));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(layout.upsellOpen).toBe(false);
    expect(linked()).toEqual([ALL.join(',')]);
  });

  it('Try again while the server still fails keeps the notice and the focus', async () => {
    const { check } = await linkWhereUncheckable();
    const notice = await screen.findByRole('dialog', { name: 'Quest limit' });
    const retry = within(notice).getByRole('button', { name: 'Try again' });
    await userEvent.click(retry);
    await waitFor(() => expect(check.failed.count).toBe(2));
    await waitFor(() => expect(session.status).toBe('error'));
    expect(screen.getByRole('dialog', { name: 'Quest limit' })).toBe(notice);
    expect(document.activeElement).toBe(retry);
    expect(quests.selected).toHaveLength(3);
  });

  it('a visitor found by the next answer gets the link notice with About Pro, cut to 3', async () => {
    const { router, check } = await linkWhereUncheckable({ ...proUser, name: 'free', pro: false });
    check.recover();
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Quest limit' })).getByRole('button', { name: 'Try again' }));
    const notice = await screen.findByRole('dialog', { name: 'Quest limit' });
    await waitFor(() => expect(notice).toHaveTextContent('This link follows 4 quests; without Pro the first 3 are followed.'));
    expect(within(notice).getByRole('button', { name: 'About Pro' })).toBeInTheDocument();
    expect(quests.selected).toEqual(['q-debut', 'q-shortage', 'q-checking']);
    await waitFor(() => expect(router.state.location.search).toBe('?quest=q-debut%2Cq-shortage%2Cq-checking'));
  });

  it('Close hides the notice; the rest still waits and any later answer (here Settings asking again) follows it', async () => {
    const { check } = await linkWhereUncheckable();
    const notice = await screen.findByRole('dialog', { name: 'Quest limit' });
    await userEvent.click(within(notice).getByRole('button', { name: /Close/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(questLinkUnchecked.waiting).toEqual(['q-delivery']);
    check.recover();
    await act(() => loadSession());
    await waitFor(() => expect(quests.selected).toEqual(ALL));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a page whose check had failed already asks again before cutting: a pro answer follows all 4, with no notice', async () => {
    const check = failingUserCheck();
    server.use(check.handler, ...accountServer(proUser).handlers);
    await act(() => loadSession());
    expect(session.status).toBe('error');
    check.recover();
    await readyMap(LINK);
    await waitFor(() => expect(quests.selected).toEqual(ALL));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says it in Russian', async () => {
    await setLanguage('ru');
    await linkWhereUncheckable();
    const notice = await screen.findByRole('dialog', { name: 'Лимит квестов' });
    expect(notice).toHaveTextContent('В ссылке 4 квеста, а следить более чем за 3 квестами одновременно можно только с Pro.');
    expect(within(notice).getByRole('alert')).toHaveTextContent(
      'Не удалось проверить ваш аккаунт (сервер не ответил), поэтому пока отслеживаются только первые 3; ещё 1 квест добавится, когда аккаунт удастся проверить.',
    );
    expect(within(notice).getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
    expect(within(notice).queryByRole('button', { name: 'О Pro' })).toBeNull();
  });
});

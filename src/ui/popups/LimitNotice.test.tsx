/** The limit notice says what happened (quests.limitWhy), in both languages. */
import '../../i18n';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quest } from '../../domain/quests';
import { setLanguage } from '../../i18n';
import { quests, resetQuests, setQuestList } from '../../state/quests';
import { resetSession, setSessionUser } from '../../state/session';
import { LimitNotice } from './LimitNotice';

const quest = (uid: string, name: string, ruName: string): Quest => ({ uid, name, ruName, trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' });

afterEach(async () => {
  resetQuests();
  resetSession();
  await setLanguage('en');
});

function show() {
  setQuestList([quest('d', 'Debut', 'Дебют'), quest('s', 'Shortage', 'Дефицит')]);
  return render(<LimitNotice onClose={() => undefined} onPro={() => undefined} />);
}

describe('limit notice', () => {
  it('names the quests a sign-out set aside, and says they come back', () => {
    quests.limitWhy = { reason: 'lostPro', setAside: ['d', 's'] };
    show();
    expect(screen.getByRole('dialog', { name: 'Quests set aside' })).toHaveTextContent(
      'Signed out: without Pro only 3 quests can be followed at once. These 2 were set aside: Debut, Shortage. They come back when you sign in with Pro again.',
    );
  });

  it('says so to a signed-in user who lost pro', () => {
    setSessionUser({ name: 'x', pro: false, admin: false, questsDone: [], questsHidden: [] });
    quests.limitWhy = { reason: 'lostPro', setAside: ['d'] };
    show();
    expect(screen.getByRole('dialog')).toHaveTextContent('This account has no Pro now: without it only 3 quests can be followed at once. This one was set aside: Debut.');
  });

  it('in Russian', async () => {
    await setLanguage('ru');
    quests.limitWhy = { reason: 'lostPro', setAside: ['d', 's'] };
    const { unmount } = show();
    expect(screen.getByRole('dialog', { name: 'Квесты отложены' })).toHaveTextContent(
      'Вы вышли из аккаунта, а без Pro можно следить не более чем за 3 квестами одновременно. Отложены 2 квеста: Дебют, Дефицит. Они вернутся, когда вы снова войдёте с Pro.',
    );
    unmount();
    quests.limitWhy = { reason: 'link', total: 5 };
    show();
    expect(screen.getByRole('dialog', { name: 'Лимит квестов' })).toHaveTextContent('В ссылке 5 квестов, но без Pro отслеживаются только первые 3.');
  });

  it('keeps "unfollow one to pick another" for a refused fourth quest', () => {
    show();
    expect(screen.getByRole('dialog', { name: 'Quest limit' })).toHaveTextContent('Unfollow one to pick another');
  });
});

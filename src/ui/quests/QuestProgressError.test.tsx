/** A failed save of quest progress in the page's language: never a status line or the browser's English. */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { quests } from '../../state/quests';
import { resetSession, session } from '../../state/session';
import { QuestProgressError } from './QuestProgressError';

afterEach(async () => {
  resetSession();
  quests.progressErrorAt = null;
  await act(() => i18n.changeLanguage('en'));
});

function failed(message: string) {
  session.progressError = message;
  quests.progressErrorAt = 'row';
  render(<QuestProgressError place="row" />);
  return screen.getByRole('alert');
}

describe('QuestProgressError', () => {
  it('says a server failure by its kind, not its status line', () => {
    expect(failed('Internal Server Error')).toHaveTextContent('Your progress could not be saved: the server had a problem — try again in a moment.');
  });

  it('says an unreachable server, not "Failed to fetch"', () => {
    expect(failed('Could not reach the server (Failed to fetch)')).toHaveTextContent(
      'Your progress could not be saved: the server could not be reached — check your connection and try again.',
    );
  });

  it('in Russian, with no English in it', async () => {
    await act(() => i18n.changeLanguage('ru'));
    const alert = failed('Service Unavailable');
    expect(alert).toHaveTextContent('Не удалось сохранить прогресс: на сервере произошёл сбой — попробуйте ещё раз чуть позже.');
    expect(alert.querySelector('span')?.textContent).not.toMatch(/[A-Za-z]/);
  });

  it('says a refusal of pro by its kind too', async () => {
    await act(() => i18n.changeLanguage('ru'));
    expect(failed('saving quest progress is a pro feature: upgrade to pro to track completed and hidden quests')).toHaveTextContent('Не удалось сохранить прогресс: вашему аккаунту это недоступно.');
  });

  it('keeps the server\'s own explanation', () => {
    expect(failed('progress could not be stored')).toHaveTextContent('Your progress could not be saved: progress could not be stored');
  });
});

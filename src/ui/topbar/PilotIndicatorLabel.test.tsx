import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { pilot, resetPilot } from '../../state/pilot';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { PilotIndicator } from './PilotIndicator';

/** The word on the top bar's live-feed button (its accessible name is the state, said in full). */
function shortLabel(): string | null {
  pilot.code = 'ABCDE23456';
  pilot.status = 'connected';
  const { container } = render(<PilotIndicator />);
  return container.querySelector('.pilot-indicator__text')?.textContent ?? null;
}

describe("the live feed's word in the top bar", () => {
  beforeEach(() => setStorageBackend(memoryStorage()));
  afterEach(async () => {
    resetPilot();
    setStorageBackend(null);
    await setLanguage('en');
  });

  it('is "Live" in English', async () => {
    await setLanguage('en');
    expect(shortLabel()).toBe('Live');
  });

  // "Эфир" (on air, as Russian streaming sites label a live broadcast) is 10 px wider than "Live":
  // the phone's compact bar keeps about 30 px to spare on Customs at 390 px (docs/DECISIONS.md).
  it('is Russian in Russian ("Эфир"), not the English word', async () => {
    await setLanguage('ru');
    expect(shortLabel()).toBe('Эфир');
  });
});

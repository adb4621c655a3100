import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './index';
import { useLanguageT } from './useLanguageT';

function Row({ renders }: { renders: string[] }) {
  const { t, lang } = useLanguageT();
  renders.push(lang);
  return <span>{t('panels.markerCount', { count: 2 })}</span>;
}

describe('useLanguageT', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('translates in the current language and re-renders when it changes', async () => {
    await act(() => i18n.changeLanguage('en'));
    const renders: string[] = [];
    const { unmount } = render(<Row renders={renders} />);
    const english = screen.getByText(/./).textContent;
    expect(english).toBe(i18n.getFixedT('en')('panels.markerCount', { count: 2 }));
    await act(() => i18n.changeLanguage('ru'));
    expect(screen.getByText(/./).textContent).toBe(i18n.getFixedT('ru')('panels.markerCount', { count: 2 }));
    expect(screen.getByText(/./).textContent).not.toBe(english);
    expect(renders).toEqual(['en', 'ru']);
    unmount();
    // Unmounted rows stop listening.
    await act(() => i18n.changeLanguage('en'));
    expect(renders).toEqual(['en', 'ru']);
  });

  it('shares one t per language across rows', () => {
    const ts: unknown[] = [];
    function Probe() {
      ts.push(useLanguageT().t);
      return null;
    }
    render(
      <>
        <Probe />
        <Probe />
      </>,
    );
    expect(ts).toHaveLength(2);
    expect(ts[0]).toBe(ts[1]);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage, UI_LANGUAGES } from '../../i18n';
import { HelpPopup, POS_HINT_DIRS, POS_HINT_FILES, posHintUrl } from './HelpPopup';

const POS_HINTS_DIR = join(__dirname, '..', '..', '..', 'assets', 'public', 'public-images', 'pos-hints');

afterEach(async () => {
  if (i18n.language !== 'en') await setLanguage('en');
});

function renderHelp(cdnBase: string, onClose = vi.fn()) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <HelpPopup onClose={onClose} cdnBase={cdnBase} /> },
      { path: '/pilot', element: <p>pilot page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return { router, onClose };
}

describe('HelpPopup', () => {
  it('builds image URLs under public-images/pos-hints on the CDN base', () => {
    expect(posHintUrl('a.svg', '')).toBe('/public-images/pos-hints/a.svg');
    expect(posHintUrl('a.svg', 'https://cdn.example.com/')).toBe('https://cdn.example.com/public-images/pos-hints/a.svg');
    expect(posHintUrl('a.svg', 'https://cdn.example.com/raidmap')).toBe('https://cdn.example.com/raidmap/public-images/pos-hints/a.svg');
  });

  it('builds the Russian pictures\' URLs under pos-hints/ru, the English ones in pos-hints itself', () => {
    expect(posHintUrl('a.svg', '', 'ru')).toBe('/public-images/pos-hints/ru/a.svg');
    expect(posHintUrl('a.svg', 'https://cdn.example.com/', 'ru')).toBe('https://cdn.example.com/public-images/pos-hints/ru/a.svg');
    expect(posHintUrl('a.svg', '', 'en')).toBe('/public-images/pos-hints/a.svg');
  });

  it('has every picture drawn for every UI language, the Russian ones with Russian text', () => {
    for (const lang of UI_LANGUAGES) {
      for (const file of POS_HINT_FILES) {
        const svg = join(POS_HINTS_DIR, POS_HINT_DIRS[lang], file);
        expect(existsSync(svg), svg).toBe(true);
        const text = readFileSync(svg, 'utf8');
        const title = /<title>([^<]+)<\/title>/.exec(text)?.[1] ?? '';
        expect(title, svg).not.toBe('');
        if (lang === 'ru') {
          expect(title, svg).toMatch(/[А-Яа-яЁё]/);
          // No English words left in the visible texts, besides the names that stay as they are.
          const visible = [...text.matchAll(/>([^<>]+)</g)].map((m) => m[1]).join(' ');
          const english = visible.replace(/Escape from Tarkov|Screenshots|raidmap|PrtScrn|POSTFX|Tab|Ctrl|\.png|qx|qy|qz|qw/g, '').match(/[A-Za-z]{3,}/g);
          expect(english, svg).toBeNull();
        }
      }
    }
  });

  it('shows the four hints from the CDN with their steps, and links to /pilot', async () => {
    const { router, onClose } = renderHelp('https://cdn.example.com');
    const dialog = screen.getByRole('dialog', { name: 'Where am I: finding your position' });
    const images = within(dialog).getAllByRole('img');
    expect(images.map((img) => img.getAttribute('src'))).toEqual(POS_HINT_FILES.map((f) => `https://cdn.example.com/public-images/pos-hints/${f}`));
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(4);
    expect(dialog).toHaveTextContent('press F2 and copy the whole name');
    await userEvent.click(within(dialog).getByRole('link', { name: 'Live position feed' }));
    expect(router.state.location.pathname).toBe('/pilot');
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the Russian pictures when the page is in Russian, still from the CDN', async () => {
    await setLanguage('ru');
    renderHelp('https://cdn.example.com');
    const dialog = screen.getByRole('dialog', { name: 'Где я: как найти свою позицию' });
    const images = within(dialog).getAllByRole('img');
    expect(images.map((img) => img.getAttribute('src'))).toEqual(POS_HINT_FILES.map((f) => `https://cdn.example.com/public-images/pos-hints/ru/${f}`));
    expect(images[0]).toHaveAccessibleName('Настройки управления игры с выделенной клавишей скриншота');
  });
});

import '../../i18n';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { HelpPopup, POS_HINT_FILES, posHintUrl } from './HelpPopup';

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
});

import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { MAP_IDS, MAPS } from '../domain/maps';
import { routes } from './routes';
import { renderRoute } from './map/testing/renderRoute';

// The map page is not opened here; keep PixiJS (no WebGL in jsdom) out of the module graph.
vi.mock('../engine/index', () => ({ createMapEngine: vi.fn() }));

const renderAt = (path: string) => renderRoute(path).router;

describe('home page', () => {
  it('lists every map with a link to its page', () => {
    renderAt('/');
    const list = screen.getByRole('list', { name: 'Maps' });
    const links = within(list).getAllByRole('link');
    expect(links).toHaveLength(MAP_IDS.length);
    for (const id of MAP_IDS) {
      const link = within(list).getByRole('link', { name: MAPS[id].name });
      expect(link).toHaveAttribute('href', `/map/${id}`);
    }
    expect(document.title).toBe('raidmap');
  });
});

describe('not-found page', () => {
  it('links all 12 maps for an unknown route', () => {
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    const links = within(screen.getByRole('list', { name: 'Maps' })).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(MAP_IDS.map((id) => `/map/${id}`));
    expect(links.map((a) => a.textContent)).toEqual(MAP_IDS.map((id) => MAPS[id].name));
    expect(document.title).toBe('Not found - raidmap');
  });

  it('names the unknown map id and links all 12 maps', () => {
    renderAt('/map/atlantis');
    expect(screen.getByText(/There is no map called “atlantis”/)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Maps' })).getAllByRole('link')).toHaveLength(12);
    expect(document.title).toBe('Not found - raidmap');
  });

  it('shows the map list text as text, never as markup', () => {
    renderAt('/map/%3Cb%3Ebold%3C%2Fb%3E');
    expect(screen.getByText(/There is no map called “<b>bold<\/b>”/)).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
  });
});

describe('error page', () => {
  function Boom(): never {
    throw new Error('render failed');
  }

  it('replaces a page that throws with a readable error and the map links', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const withBoom: RouteObject[] = [{ errorElement: routes[0].errorElement, children: [{ path: '/boom', element: <Boom /> }] }];
    render(<RouterProvider router={createMemoryRouter(withBoom, { initialEntries: ['/boom'] })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(within(screen.getByRole('list', { name: 'Maps' })).getAllByRole('link')).toHaveLength(12);
    expect(document.title).toBe('Error - raidmap');
    quiet.mockRestore();
  });
});

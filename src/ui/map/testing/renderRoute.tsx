/** Renders the app's routes at `path` in a memory router (component tests); optionally in StrictMode. */
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '../../routes';

export function renderRoute(path: string, { strict = false } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const app = <RouterProvider router={router} />;
  const view = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { router, ...view };
}

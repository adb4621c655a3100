import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { loadSession } from '../state/session';
import { routes } from './routes';

export function createAppRouter() {
  return createBrowserRouter(routes);
}

export function App({ router = createAppRouter() }: { router?: ReturnType<typeof createAppRouter> }) {
  // Who is signed in, asked once per page load; every page reads the answer from `session`.
  useEffect(() => {
    void loadSession();
  }, []);
  return <RouterProvider router={router} />;
}

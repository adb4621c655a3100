import '../i18n';
import type { RouteObject } from 'react-router';
import { MapPage } from './map/MapPage';
import { ErrorPage } from './pages/ErrorPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PageLoading } from './pages/PageLoading';

/**
 * The site's routes. The home and map pages are in the app's script; the pilot page (with its
 * QR code library) and the quests page load when first visited, so a map page evaluates less
 * script before its engine starts (issue 11).
 */
export const routes: RouteObject[] = [
  {
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/map/:mapId', element: <MapPage /> },
      { path: '/pilot', lazy: async () => ({ Component: (await import('./pages/PilotPage')).PilotPage }) },
      { path: '/progression/quests', lazy: async () => ({ Component: (await import('./pages/QuestsPage')).QuestsPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

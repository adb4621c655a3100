import '../i18n';
import type { RouteObject } from 'react-router';
import { MapPage } from './map/MapPage';
import { ErrorPage } from './pages/ErrorPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PilotPage } from './pages/PilotPage';
import { QuestsPage } from './pages/QuestsPage';

/** The site's routes; later issues add /progression/quests and /pilot here. */
export const routes: RouteObject[] = [
  {
    errorElement: <ErrorPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/map/:mapId', element: <MapPage /> },
      { path: '/pilot', element: <PilotPage /> },
      { path: '/progression/quests', element: <QuestsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The page an admin's marker popup is tested on (MarkerPopupAdmin.test.tsx, MarkerConflicts.test.tsx):
 * the popup beside the dock's set-aside notice and waiting conflicts, the editor bound to an
 * in-memory admin API (editor/testing/fakes.ts), two markers of factory and a quest list.
 */
import '../../../i18n';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { ReactNode } from 'react';
import { afterEach, beforeEach } from 'vitest';
import type { Marker } from '../../../domain/marker';
import { MAPS } from '../../../domain/maps';
import { createEditorCommands } from '../../../editor/commands';
import { fakeServer } from '../../../editor/testing/fakes';
import { setLanguage } from '../../../i18n';
import { bindEditor, resetEditor } from '../../../state/editor';
import { loadFilters } from '../../../state/filters';
import { resetLookups } from '../../../state/items';
import { closeMap, mapView, openMap, selectMarker } from '../../../state/mapView';
import { markerChanged, resetPopup } from '../../../state/popup';
import { resetQuests } from '../../../state/quests';
import { resetSession, setSessionUser, type SessionUser } from '../../../state/session';
import { SetAsideNotice } from '../../admin/SetAsideNotice';
import { WaitingConflicts } from '../../admin/WaitingConflicts';
import { createLocalMarkerSource } from '../../map/testing/localMarkerSource';
import { TEST_API_BASE as BASE } from '../../map/testing/mapApi';
import { useMemoryStorage, useTestServer } from '../../map/testing/mapPageTest';
import { MarkerPopup } from '../MarkerPopup';
import { forgetPopupOpener } from '../popupFocus';
import { forgetResumeFocus } from '../resumeFocus';
import { keepsGoneMarker } from '../useOpenMarker';

export const questList = [
  { uid: 'q-delivery', name: 'Delivery from the Past', ruName: 'Посылка из прошлого', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' },
  { uid: 'q-bad-rep', name: 'Bad Rep Evidence', ruName: 'Компромат', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' },
  ...['q-a', 'q-b', 'q-c'].map((uid) => ({ uid, name: uid, ruName: uid, trader: 'Jaeger', requiredForKappa: false, requiredForLightkeeper: false, wikiUrl: '' })),
];

export const safe: Marker = {
  uid: 'm-safe',
  map: 'factory',
  category: 'Loot',
  subCategory: 'Safe',
  level: 2,
  geometry: { x: 500, y: 400 },
  name: 'Office safe',
  desc: 'Behind the desk',
  name_l10n: { en: 'Office safe', ru: 'Сейф в офисе' },
  desc_l10n: {},
  imgs: [],
  itemsUid: [],
};
export const exit: Marker = {
  uid: 'm-exit',
  map: 'factory',
  category: 'Extractions',
  subCategory: 'PMC Extraction',
  level: -1,
  geometry: { x: 1500, y: 2600 },
  name: 'Gate 3',
  desc: '',
  name_l10n: {},
  desc_l10n: {},
  imgs: [],
  itemsUid: [],
};

export const admin: SessionUser = { name: 'admin', admin: true, pro: false, questsDone: [], questsHidden: [] };

/** The msw server, memory storage and per-test resets both admin popup test files need (call at the top of the file). */
export function useAdminPopupPage(): void {
  useTestServer(
    http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: questList })),
    http.get(`${BASE}/api/be/items`, () => HttpResponse.json({ items: [] })),
    http.get(`${BASE}/api/be/user`, () => HttpResponse.json({ error: 'unauthorized' }, { status: 401 })),
  );

  useMemoryStorage();

  beforeEach(() => {
    resetEditor();
    resetPopup();
    resetLookups();
    resetQuests();
    forgetResumeFocus();
    openMap('factory');
    loadFilters('factory');
  });
  afterEach(async () => {
    resetEditor();
    resetSession();
    closeMap();
    forgetPopupOpener();
    forgetResumeFocus();
    await setLanguage('en');
  });
}

/**
 * The popup, the dock's set-aside notice and its waiting conflicts (and `extra`, e.g. the page's
 * live region), the editor bound to a fake server holding `markers`.
 */
export async function setup(user: SessionUser | null, markers: Marker[] = [safe, exit], extra?: ReactNode) {
  setSessionUser(user);
  const server = fakeServer();
  const stored = markers.map((m) => server.seed(m));
  const source = createLocalMarkerSource();
  await source.load(await new Response(JSON.stringify({ markers: stored })).arrayBuffer(), 'factory', 'en');
  bindEditor(
    createEditorCommands({
      api: server.api,
      mapId: 'factory',
      sink: {
        get: (uid) => source.get(uid),
        async upsert(marker) {
          await source.upsert(marker, 'en');
          markerChanged(marker.uid);
        },
        async remove(uid) {
          await source.remove(uid);
          if (mapView.selectedUid === uid && !keepsGoneMarker(uid)) selectMarker(null);
          markerChanged(uid);
        },
      },
    }),
  );
  const page = (
    <>
      <MarkerPopup map={MAPS.factory} source={source} loaded />
      <SetAsideNotice />
      <WaitingConflicts />
      {extra}
    </>
  );
  render(<RouterProvider router={createMemoryRouter([{ path: '/map/:mapId', element: page }], { initialEntries: ['/map/factory'] })} />);
  return { server, source };
}

export async function open(uid = 'm-safe', name = 'Office safe') {
  act(() => selectMarker(uid));
  return screen.findByRole('dialog', { name });
}

/** Edit pressed from the keyboard, as the probe did. */
export async function edit(uid = 'm-safe', name = 'Office safe') {
  const dialog = await open(uid, name);
  within(dialog).getByRole('button', { name: 'Edit' }).focus();
  await userEvent.keyboard('{Enter}');
  return within(dialog).getByRole('form', { name: 'Edit marker' });
}

export const field = (form: HTMLElement, name: string) => within(form).getByRole('textbox', { name }) as HTMLInputElement;

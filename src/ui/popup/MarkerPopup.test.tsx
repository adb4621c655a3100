import '../../i18n';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountUser } from '../../api/account';
import { MAPS } from '../../domain/maps';
import { setLanguage } from '../../i18n';
import { filters, loadFilters, setCategoryHidden, setSubCategoryHidden } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { closeMap, mapView, openMap, selectMarker } from '../../state/mapView';
import { markerChanged, popup, POPUP_STORAGE_KEY, resetPopup, setEnlarged, setPopupPlacement } from '../../state/popup';
import { closeUpsell, layout } from '../../state/layout';
import { quests, resetQuests } from '../../state/quests';
import { loadSession, resetSession } from '../../state/session';
import { resetSettings, updateSettings } from '../../state/settings';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { accountServer, compactOf, TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { setSignedInHint, useMemoryStorage, useTestServer } from '../map/testing/mapPageTest';
import { MarkerPopup } from './MarkerPopup';
import { forgetPopupOpener, tabStops } from './popupFocus';

const questList = [
  { uid: 'q-delivery', name: 'Delivery from the Past', ruName: 'Посылка из прошлого', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: 'https://wiki.example/Delivery' },
];
const itemList = [
  { uid: 'i-key', name: 'Factory exit key', ruName: 'Ключ от выхода с завода' },
  { uid: 'i-gpu', name: 'Graphics card', ruName: 'Видеокарта' },
];
const markerList = [
  {
    uid: 'm-safe',
    map: 'factory',
    category: 'Loot',
    subCategory: 'Safe',
    level: 2,
    geometry: { x: 500, y: 400 },
    name: 'Office safe',
    name_l10n: { en: 'Office safe', ru: 'Сейф в офисе' },
    desc: '<b>Opens</b> with <img src=x onerror="window.hacked=1"> a key',
    desc_l10n: { ru: 'Открывается ключом' },
    imgs: [
      { img: '/uploads/sample/safe-1.webp', name: 'Door', desc: 'From the hall' },
      { img: '/uploads/sample/safe-2.webp', name: 'Inside', desc: '' },
      { img: '/uploads/sample/safe-3.webp', name: 'Key', desc: '' },
    ],
    questUid: 'q-delivery',
    itemsUid: ['i-key', 'i-gpu', 'i-unknown'],
  },
  {
    uid: 'm-exit',
    map: 'factory',
    category: 'Extractions',
    subCategory: 'PMC Extraction',
    level: -1,
    geometry: { x: 1500, y: 2600 },
    name: 'Gate 3',
    imgs: [
      { img: '/uploads/sample/exit-1.webp', name: 'Gate', desc: '' },
      { img: '/uploads/sample/exit-2.webp', name: 'Gate side', desc: '' },
    ],
  },
];

/** A marker of another map: a `?obj=` link to it on Factory goes to Customs. */
const customsMarker = { uid: 'm-customs', map: 'customs', category: 'Extractions', subCategory: 'PMC Extraction', level: 1, geometry: { x: 900, y: 900 }, name: 'ZB-1011', imgs: [] };

const server = useTestServer(
  http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: questList })),
  http.get(`${BASE}/api/be/items`, () => HttpResponse.json({ items: itemList })),
  // Where a linked marker is, for a link whose marker is not on the open map.
  http.get(`${BASE}/api/be/markers/one`, ({ request }) => {
    const marker = [...markerList, customsMarker].find((m) => m.uid === new URL(request.url).searchParams.get('uid'));
    return marker ? HttpResponse.json({ marker }) : HttpResponse.json({ error: 'not_found', message: 'no marker' }, { status: 404 });
  }),
);
const storage = useMemoryStorage();

beforeEach(() => {
  resetPopup();
  resetLookups();
  resetQuests();
  openMap('factory');
  loadFilters('factory');
});
afterEach(async () => {
  resetSession();
  closeUpsell();
  setSignedInHint(false);
  closeMap();
  await setLanguage('en');
});

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

async function renderPopup(path = '/map/factory') {
  const source = createLocalMarkerSource();
  const buffer = await new Response(JSON.stringify({ markers: markerList })).arrayBuffer();
  await source.load(buffer, 'factory', 'en');
  const router = createMemoryRouter(
    [
      {
        path: '/map/:mapId',
        element: (
          <>
            <MarkerPopup map={MAPS.factory} source={source} loaded />
            <Location />
          </>
        ),
      },
      { path: '/progression/quests', element: <Location /> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { router, source };
}

const location = () => screen.getByTestId('location').textContent;

/** The map page's way (issue 11): the compact list loaded, full markers read from /markers/one. */
async function renderCompactPopup(delayMs: number) {
  const reads: string[] = [];
  server.use(
    http.get(`${BASE}/api/be/markers/one`, async ({ request }) => {
      const uid = new URL(request.url).searchParams.get('uid')!;
      reads.push(uid);
      await new Promise((r) => setTimeout(r, delayMs));
      const marker = markerList.find((m) => m.uid === uid);
      return marker ? HttpResponse.json({ marker }) : HttpResponse.json({ error: 'not_found', message: 'no marker' }, { status: 404 });
    }),
  );
  const source = createLocalMarkerSource();
  const compact = compactOf(markerList, new Request(`${BASE}/api/be/markers/compact?map=factory&lang=en`));
  await source.load(await new Response(JSON.stringify(compact)).arrayBuffer(), 'factory', 'en');
  render(
    <RouterProvider router={createMemoryRouter([{ path: '/map/:mapId', element: <MarkerPopup map={MAPS.factory} source={source} loaded /> }], { initialEntries: ['/map/factory'] })} />,
  );
  return { reads };
}

describe('marker popup', () => {
  it('reads the full marker from the server behind a compact list, showing a loading frame while the read is slow', async () => {
    const { reads } = await renderCompactPopup(600);
    act(() => selectMarker('m-safe'));
    const loading = await screen.findByRole('dialog', { name: 'Marker' });
    expect(loading).toHaveTextContent('Loading the marker…');
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' }, { timeout: 3000 });
    expect(dialog).toHaveTextContent('a key');
    expect(screen.queryByText('Loading the marker…')).toBeNull();
    // Read once: closing and opening it again comes from the worker's copy, with no frame.
    act(() => selectMarker(null));
    act(() => selectMarker('m-safe'));
    expect(await screen.findByRole('dialog', { name: 'Office safe' })).toBeInTheDocument();
    expect(reads).toEqual(['m-safe']);
  });

  it('says why when the full marker cannot be read, and closes as usual', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderCompactPopup(0);
    server.use(http.get(`${BASE}/api/be/markers/one`, () => HttpResponse.json({ error: 'internal', message: 'Database is locked' }, { status: 500 })));
    act(() => selectMarker('m-safe'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The marker could not be read: Database is locked');
    expect(error).toHaveBeenCalled();
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Marker' })).getByRole('button', { name: /close/i }));
    expect(mapView.selectedUid).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reads the marker again with Try again, once the server answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderCompactPopup(0);
    server.use(http.get(`${BASE}/api/be/markers/one`, () => HttpResponse.error(), { once: true }));
    act(() => selectMarker('m-safe'));
    const frame = await screen.findByRole('dialog', { name: 'Marker' });
    // The browser's own words ("Failed to fetch") are said by their kind, in the page's language.
    expect(await within(frame).findByRole('alert')).toHaveTextContent('The marker could not be read: the server could not be reached — check your connection and try again.');
    await userEvent.click(within(frame).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('dialog', { name: 'Office safe' }, { timeout: 3000 })).toHaveTextContent('a key');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows no loading frame for a quick read', async () => {
    await renderCompactPopup(0);
    act(() => selectMarker('m-exit'));
    expect(await screen.findByRole('dialog', { name: 'Gate 3' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText('Loading the marker…')).toBeNull();
  });

  it('opens for the selected marker with its name, description as text, level, quest link and item names', async () => {
    await renderPopup();
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    // The description is text: its markup shows literally and creates no element.
    expect(dialog).toHaveTextContent('<b>Opens</b> with <img src=x onerror="window.hacked=1"> a key');
    expect(dialog.querySelector('b')).toBeNull();
    expect(dialog.querySelectorAll('img')).toHaveLength(1);
    expect(within(dialog).getByText('Level').nextElementSibling).toHaveTextContent('Level 2');
    const link = await within(dialog).findByRole('link', { name: 'Delivery from the Past' });
    expect(link).toHaveAttribute('href', '/progression/quests?quest=q-delivery');
    await waitFor(() => expect(within(dialog).getByText('Factory exit key')).toBeInTheDocument());
    expect(within(dialog).getByText('Graphics card')).toBeInTheDocument();
    expect(within(dialog).getByText('i-unknown')).toBeInTheDocument();
    expect(popup.uid).toBe('m-safe');

    await userEvent.click(link);
    expect(location()).toBe('/progression/quests?quest=q-delivery');
  });

  it('follows the language: name, description, item and quest names in Russian', async () => {
    await renderPopup();
    act(() => selectMarker('m-safe'));
    await screen.findByRole('dialog', { name: 'Office safe' });
    await act(() => setLanguage('ru'));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    expect(dialog).toHaveTextContent('Открывается ключом');
    await waitFor(() => expect(within(dialog).getByText('Ключ от выхода с завода')).toBeInTheDocument());
    expect(within(dialog).getByRole('link', { name: 'Посылка из прошлого' })).toBeInTheDocument();
    expect(within(dialog).getByText('Уровень').nextElementSibling).toHaveTextContent('2-й этаж');
  });

  it('pages images with a counter, and a different marker starts at image 0', async () => {
    await renderPopup();
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    const image = () => within(screen.getByRole('dialog')).getByRole('img');
    expect(dialog).toHaveTextContent('1 / 3');
    expect(image()).toHaveAttribute('src', '/uploads/sample/safe-1.webp');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(dialog).toHaveTextContent('3 / 3');
    expect(image()).toHaveAttribute('src', '/uploads/sample/safe-3.webp');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(dialog).toHaveTextContent('2 / 3');

    act(() => selectMarker('m-exit'));
    const exit = await screen.findByRole('dialog', { name: 'Gate 3' });
    expect(exit).toHaveTextContent('1 / 2');
    expect(image()).toHaveAttribute('src', '/uploads/sample/exit-1.webp');
    expect(within(exit).getByText('Level').nextElementSibling).toHaveTextContent('Basement');
    expect(within(exit).queryByRole('link')).toBeNull();
  });

  it('enlarges and shrinks, remembering the choice in localStorage map_popup', async () => {
    await renderPopup();
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    await userEvent.click(screen.getByRole('button', { name: 'Enlarge' }));
    expect(storage().getItem(POPUP_STORAGE_KEY)).toBe('xlsize');
    expect(document.querySelector('.marker-popup--xl')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Shrink' }));
    expect(storage().getItem(POPUP_STORAGE_KEY)).toBeNull();
    expect(document.querySelector('.marker-popup--xl')).toBeNull();
  });

  it('opens enlarged when the choice was remembered', async () => {
    storage().setItem(POPUP_STORAGE_KEY, 'xlsize');
    await renderPopup();
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    expect(screen.getByRole('button', { name: 'Shrink' })).toBeInTheDocument();
    expect(document.querySelector('.marker-popup--xl')).not.toBeNull();
  });

  it('closes on Escape and clears obj and quest from the address, keeping the rest (spec §4)', async () => {
    await renderPopup('/map/factory?obj=m-exit&quest=q-delivery&lang=x');
    await screen.findByRole('dialog', { name: 'Gate 3' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mapView.selectedUid).toBeNull();
    expect(popup.uid).toBeNull();
    await waitFor(() => expect(location()).toBe('/map/factory?lang=x'));
  });

  it('closes with the Close button too', async () => {
    await renderPopup('/map/factory?quest=q-delivery');
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(location()).toBe('/map/factory'));
  });

  it('keeps obj in the address on the open marker, replacing the entry rather than adding one per click', async () => {
    const { router } = await renderPopup('/map/factory?lang=x');
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    await waitFor(() => expect(location()).toBe('/map/factory?lang=x&obj=m-exit'));
    act(() => selectMarker('m-safe'));
    await screen.findByRole('dialog', { name: 'Office safe' });
    await waitFor(() => expect(location()).toBe('/map/factory?lang=x&obj=m-safe'));
    expect(router.state.historyAction).toBe('REPLACE');
    act(() => selectMarker(null));
    await waitFor(() => expect(location()).toBe('/map/factory?lang=x'));
  });

  it('sits where the wiring places it clear of its marker, at normal size in view mode', async () => {
    await renderPopup();
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    const wrapper = () => document.querySelector('.marker-popup');
    expect(wrapper()?.getAttribute('data-placement')).toBe('bottom');
    act(() => setPopupPlacement('left'));
    await waitFor(() => expect(wrapper()).toHaveClass('marker-popup--left'));
    act(() => setEnlarged(true));
    await waitFor(() => expect(wrapper()).toHaveClass('marker-popup--xl'));
    expect(wrapper()).not.toHaveClass('marker-popup--left');
  });

  it('tells the wiring while the pointer is over it', async () => {
    await renderPopup();
    act(() => selectMarker('m-exit'));
    const dialog = await screen.findByRole('dialog', { name: 'Gate 3' });
    await userEvent.hover(dialog);
    expect(popup.pointerOver).toBe(true);
    await userEvent.unhover(dialog);
    expect(popup.pointerOver).toBe(false);
  });

  it('?obj= shows the hidden category, the level and the popup, and asks to centre on the marker', async () => {
    setCategoryHidden('Loot', true);
    setSubCategoryHidden('Safe', true);
    await renderPopup('/map/factory?obj=m-safe');
    await screen.findByRole('dialog', { name: 'Office safe' });
    expect(filters.hiddenCategories).toEqual([]);
    expect(filters.hiddenSubCategories).toEqual([]);
    expect(mapView.level).toBe(2);
    expect(mapView.selectedUid).toBe('m-safe');
    expect(popup.focus).toEqual({ x: 500, y: 400 });
    // Its quest is followed, so the quest-linked marker is drawn.
    expect(quests.selected).toEqual(['q-delivery']);
    expect(location()).toBe('/map/factory?obj=m-safe');
  });

  it('reads its marker again when told it changed, and closes when the marker is gone', async () => {
    const { source } = await renderPopup();
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    const original = source.get.bind(source);
    let renamed: string | null = 'Gate 3 (north)';
    source.get = async (uid: string) => {
      const found = await original(uid);
      if (!found || uid !== 'm-exit') return found;
      return renamed === null ? null : { ...found, name: renamed };
    };
    // A change to another marker is not a reason to read this one again.
    act(() => markerChanged('m-safe'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.getByRole('dialog', { name: 'Gate 3' })).toBeInTheDocument();
    act(() => markerChanged('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3 (north)' });
    renamed = null;
    act(() => markerChanged());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mapView.selectedUid).toBeNull();
  });

  it('says so when ?obj= names no marker, and takes it from the address', async () => {
    await renderPopup('/map/factory?obj=nope&lang=x');
    const notice = await screen.findByRole('dialog', { name: 'Marker not found' });
    expect(notice).toHaveTextContent("This link's marker no longer exists.");
    expect(mapView.selectedUid).toBeNull();
    await waitFor(() => expect(location()).toBe('/map/factory?lang=x'));
    await userEvent.click(within(notice).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("goes to another map's marker on that map, with the same link, replacing the history entry", async () => {
    const { router } = await renderPopup('/map/factory?obj=m-customs&quest=q-delivery&lang=x');
    await waitFor(() => expect(location()).toBe('/map/customs?obj=m-customs&quest=q-delivery&lang=x'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.queryByRole('dialog', { name: 'Marker not found' })).toBeNull();
  });

  it('says it in Russian too', async () => {
    await setLanguage('ru');
    await renderPopup('/map/factory?obj=nope');
    expect(await screen.findByRole('dialog', { name: 'Метка не найдена' })).toHaveTextContent('Метки из этой ссылки больше нет.');
  });

  it("follows a linked marker's quest in place of the oldest of 3, without the limit notice", async () => {
    const more = ['q-a', 'q-b', 'q-c'].map((uid) => ({ ...questList[0], uid, name: uid }));
    server.use(http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: [...questList, ...more] })));
    quests.selected = ['q-a', 'q-b', 'q-c'];
    await renderPopup('/map/factory?obj=m-safe');
    await screen.findByRole('dialog', { name: 'Office safe' });
    expect(quests.selected).toEqual(['q-b', 'q-c', 'q-delivery']);
    expect(quests.limitNotice).toBe(false);
    // Not silently: the popup names the quest that gave its place, with Undo.
    const dialog = screen.getByRole('dialog', { name: 'Office safe' });
    await waitFor(() => expect(dialog).toHaveTextContent('To show this marker, “Delivery from the Past” is now followed in place of “q-a” (free visitors follow up to 3 quests).'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect(quests.selected).toEqual(['q-a', 'q-b', 'q-c']);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('marker popup quest actions', () => {
  const proUser: AccountUser = { name: 'pro', pro: true, admin: false, questsDone: [], questsHidden: [] };
  const actions = () => document.querySelector<HTMLElement>('.marker-popup__quest-actions');

  async function signedIn(user: AccountUser | null) {
    const account = accountServer(user);
    server.use(...account.handlers);
    await act(() => loadSession());
    return account;
  }

  async function openSafe() {
    await renderPopup();
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    await within(dialog).findByRole('link', { name: 'Delivery from the Past' });
    return dialog;
  }

  it('shows visitors the actions marked Pro under the quest link; a click opens the upsell and sends nothing', async () => {
    const account = await signedIn(null);
    const dialog = await openSafe();
    const group = within(dialog).getByRole('group', { name: 'Progress: Delivery from the Past' });
    expect(group).toBe(actions());
    expect(group).toHaveTextContent('Pro');
    const complete = within(group).getByRole('button', { name: 'Complete: Delivery from the Past' });
    expect(complete).toHaveAccessibleDescription('A Pro feature');
    await userEvent.click(complete);
    expect(layout.upsellOpen).toBe(true);
    closeUpsell();
    await userEvent.click(within(group).getByRole('button', { name: 'Hide: Delivery from the Past' }));
    expect(layout.upsellOpen).toBe(true);
    expect(account.requests).toEqual([]);
    // The popup stays open on its marker.
    expect(mapView.selectedUid).toBe('m-safe');
  });

  it('lets a pro user reopen and complete from the popup; a done quest’s link is dimmed', async () => {
    const account = await signedIn({ ...proUser, questsDone: ['q-delivery'] });
    const dialog = await openSafe();
    const link = within(dialog).getByRole('link', { name: 'Delivery from the Past' });
    expect(link).toHaveClass('marker-popup__quest-link--done');
    const group = actions()!;
    expect(group).not.toHaveTextContent('Pro');
    await userEvent.click(within(group).getByRole('button', { name: 'Reopen: Delivery from the Past' }));
    await within(group).findByRole('button', { name: 'Complete: Delivery from the Past' });
    expect(link).not.toHaveClass('marker-popup__quest-link--done');
    expect(account.requests).toEqual(['GET /api/be/user', 'GET /api/be/user', 'POST /api/be/user/progress']);
    expect(account.progressBodies).toEqual([{ done: { remove: ['q-delivery'] } }]);
    expect(account.user?.questsDone).toEqual([]);

    await userEvent.click(within(group).getByRole('button', { name: 'Hide: Delivery from the Past' }));
    await within(group).findByRole('button', { name: 'Show: Delivery from the Past' });
    expect(account.progressBodies[1]).toEqual({ hidden: { add: ['q-delivery'] } });
    expect(account.user?.questsHidden).toEqual(['q-delivery']);
    expect(layout.upsellOpen).toBe(false);
  });

  it("says why a marker of a quest the user completed or hid is not on the map, with the way back (a link, own progress on)", async () => {
    const account = await signedIn({ ...proUser, questsDone: ['q-delivery'], questsHidden: ['q-delivery'] });
    await renderPopup('/map/factory?obj=m-safe');
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    await waitFor(() => expect(dialog).toHaveTextContent('You completed and hid this quest, so its markers are hidden on the map.'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show quest' }));
    await waitFor(() => expect(dialog).toHaveTextContent('You completed this quest, so its markers are hidden on the map.'));
    expect(account.progressBodies).toEqual([{ hidden: { remove: ['q-delivery'] } }]);
    expect(account.user?.questsHidden).toEqual([]);
    expect(within(dialog).queryByRole('button', { name: 'Show quest' })).toBeNull();
    // Own progress off: the marker is drawn, nothing to say.
    act(() => updateSettings({ ownProgress: false }));
    await waitFor(() => expect(dialog).not.toHaveTextContent('You completed this quest'));
    expect(within(dialog).queryByRole('button', { name: 'Mark not done' })).toBeNull();
    resetSettings();
  });

  it('shows a failed save in the popup with the server’s message', async () => {
    await signedIn(proUser);
    server.use(http.post(`${BASE}/api/be/user/progress`, () => HttpResponse.json({ error: 'internal', message: 'progress could not be stored' }, { status: 500 })));
    const dialog = await openSafe();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Complete: Delivery from the Past' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your progress could not be saved: progress could not be stored');
    expect(within(dialog).getByRole('link', { name: 'Delivery from the Past' })).not.toHaveClass('marker-popup__quest-link--done');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('shows admins no quest actions and no dimming', async () => {
    await signedIn({ ...proUser, name: 'admin', pro: false, admin: true, questsDone: ['q-delivery'] });
    const dialog = await openSafe();
    expect(actions()).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /Delivery from the Past/ })).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Delivery from the Past' })).not.toHaveClass('marker-popup__quest-link--done');
  });

  it('has no quest actions for a marker without a quest, and names the quest in Russian', async () => {
    await signedIn(proUser);
    await renderPopup();
    act(() => selectMarker('m-exit'));
    await screen.findByRole('dialog', { name: 'Gate 3' });
    expect(actions()).toBeNull();
    act(() => selectMarker('m-safe'));
    await screen.findByRole('dialog', { name: 'Office safe' });
    await act(() => setLanguage('ru'));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Отметить выполненным: Посылка из прошлого' })).toBeInTheDocument());
    expect(within(dialog).getByRole('button', { name: 'Скрыть: Посылка из прошлого' })).toHaveAttribute('title', 'Скрыть этот квест');
  });
});

describe('marker popup in the Tab order (not modal: right after what opened it)', () => {
  /** The map page around the popup (MapPage.tsx's order): skip link, canvas, top bar, a panel; the popup, then the admin dock. */
  function pageAround() {
    const before = document.createElement('div');
    before.innerHTML = `
      <a href="#search" class="skip">Skip to map search</a>
      <div class="map-canvas" role="application" aria-label="Factory map"></div>
      <header><a href="/">All maps</a></header>
      <aside><input aria-label="Find a marker" /><button type="button">Show all</button></aside>`;
    const after = document.createElement('div');
    after.innerHTML = '<button type="button">Dock tool</button>';
    document.body.prepend(before);
    document.body.append(after);
    return () => {
      before.remove();
      after.remove();
    };
  }
  let remove = () => undefined as void;
  beforeEach(async () => {
    // A popup the last test left with the focus in it gives the focus back a task later (popupFocus.ts): let it, then start clean.
    await new Promise((r) => setTimeout(r, 0));
    (document.activeElement as HTMLElement | null)?.blur?.();
    forgetPopupOpener();
  });
  afterEach(() => {
    remove();
    forgetPopupOpener();
  });

  const lastStop = (dialog: HTMLElement) => tabStops(dialog.closest('.marker-popup')!).at(-1)!;

  it('opened from the map (a click, a link): Tab from its last control goes on after the map, to the top bar; Shift+Tab from the popup back before the map', async () => {
    remove = pageAround();
    await renderPopup();
    act(() => selectMarker('m-exit'));
    const dialog = await screen.findByRole('dialog', { name: 'Gate 3' });
    expect(dialog).toHaveFocus();
    // Shift+Tab from the dialog itself (focused on open): not to the panel drawn before it.
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('link', { name: 'Skip to map search' })).toHaveFocus();

    act(() => lastStop(dialog).focus());
    await userEvent.tab();
    // Not the page's end (the dock after the popup): the page goes on after the map.
    expect(screen.getByRole('link', { name: 'All maps' })).toHaveFocus();
  });

  /** The page around the popup, and Gate 3's popup opened from Find a marker's field (focused). */
  async function openFromFind(): Promise<{ find: HTMLElement; dialog: HTMLElement }> {
    remove = pageAround();
    await renderPopup();
    const find = screen.getByRole('textbox', { name: 'Find a marker' });
    act(() => find.focus());
    act(() => selectMarker('m-exit'));
    const dialog = await screen.findByRole('dialog', { name: 'Gate 3' });
    // The focus moves in once the popup has placed itself (a frame later on a busy machine).
    await waitFor(() => expect(dialog).toHaveFocus());
    return { find, dialog };
  }

  it('opened from Find a marker: Tab from its last control goes to the control after the field, Shift+Tab from its first back to the field', async () => {
    const { find, dialog } = await openFromFind();
    expect(dialog).toHaveFocus();

    act(() => lastStop(dialog).focus());
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Show all' })).toHaveFocus();

    const first = tabStops(dialog)[0];
    act(() => first.focus());
    await userEvent.tab({ shift: true });
    expect(find).toHaveFocus();
    // Within the popup, the browser's own order.
    act(() => first.focus());
    await userEvent.tab();
    expect(tabStops(dialog)[1]).toHaveFocus();
  });

  it('opened from the map: reached again from the map canvas by Tab, and from the top bar by Shift+Tab', async () => {
    remove = pageAround();
    const canvas = document.querySelector<HTMLElement>('.map-canvas')!;
    // The map is a Tab stop (ui/map/mapKeyboard.ts).
    canvas.tabIndex = 0;
    await renderPopup();
    act(() => selectMarker('m-exit'));
    const dialog = await screen.findByRole('dialog', { name: 'Gate 3' });
    const stops = tabStops(dialog.closest('.marker-popup')!);
    act(() => lastStop(dialog).focus());
    await userEvent.tab();
    const allMaps = screen.getByRole('link', { name: 'All maps' });
    expect(allMaps).toHaveFocus();
    // Back: Shift+Tab from the top bar's first stop lands on the popup's last control.
    await userEvent.tab({ shift: true });
    expect(lastStop(dialog)).toHaveFocus();
    // From the map canvas, Tab goes into the popup (its first control), not on to the top bar.
    act(() => canvas.focus());
    await userEvent.tab();
    expect(stops[0]).toHaveFocus();
  });

  it('opened from Find a marker: reached again by Tab from the field, and by Shift+Tab from the control after it', async () => {
    const { find, dialog } = await openFromFind();
    act(() => find.focus());
    await userEvent.tab();
    expect(tabStops(dialog)[0]).toHaveFocus();
    act(() => screen.getByRole('button', { name: 'Show all' }).focus());
    await userEvent.tab({ shift: true });
    expect(lastStop(dialog)).toHaveFocus();
    // Elsewhere, the browser's order: the skip link's Tab goes on to the next stop as ever.
    act(() => screen.getByRole('link', { name: 'Skip to map search' }).focus());
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'All maps' })).toHaveFocus();
  });

  it('goes on after the map when the field that opened it is gone (a phone folds the panels)', async () => {
    const { find, dialog } = await openFromFind();
    find.closest('aside')!.hidden = true;
    act(() => lastStop(dialog).focus());
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'All maps' })).toHaveFocus();
  });

  it('closed (Escape, Close) with the focus in it, gives the focus back to the field that opened it, or to the map', async () => {
    const { find, dialog } = await openFromFind();
    expect(dialog).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(find).toHaveFocus());

    act(() => selectMarker('m-exit'));
    const again = await screen.findByRole('dialog', { name: 'Gate 3' });
    act(() => within(again).getByRole('button', { name: 'Close' }).focus());
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(find).toHaveFocus());

    // The field gone meanwhile (a phone folds the panels away): the map takes the focus, not the page's body.
    act(() => selectMarker('m-exit'));
    const third = await screen.findByRole('dialog', { name: 'Gate 3' });
    find.closest('aside')!.remove();
    await userEvent.click(within(third).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement?.classList.contains('map-canvas')).toBe(true));
  });
});

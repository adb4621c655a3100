/**
 * The marker popup's edit mode with the real editor slice (state/editor.ts) bound to the real
 * commands (src/editor) over an in-memory admin API (src/editor/testing/fakes.ts) and the
 * in-process marker worker: what the admin does in the form, and what reaches the server.
 */
import '../../i18n';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Marker } from '../../domain/marker';
import { MAPS } from '../../domain/maps';
import { createEditorCommands, type EditorApi } from '../../editor/commands';
import { fakeServer } from '../../editor/testing/fakes';
import { setLanguage } from '../../i18n';
import { bindEditor, copyMarkerTo, editor, moveMarker, receiveRemoteChange, resetEditor, retrySave, setEditOnOpen, undo } from '../../state/editor';
import { loadFilters } from '../../state/filters';
import { resetLookups } from '../../state/items';
import { closeMap, mapView, openMap, selectMarker } from '../../state/mapView';
import { markerChanged, popup, resetPopup } from '../../state/popup';
import { SetAsideNotice } from '../admin/SetAsideNotice';
import { WaitingConflicts } from '../admin/WaitingConflicts';
import { resetQuests } from '../../state/quests';
import { resetSession, setSessionUser, type SessionUser } from '../../state/session';
import { createLocalMarkerSource } from '../map/testing/localMarkerSource';
import { TEST_API_BASE as BASE } from '../map/testing/mapApi';
import { useMemoryStorage, useTestServer } from '../map/testing/mapPageTest';
import { LiveAnnouncer } from '../LiveAnnouncer';
import { ApiError } from '../../api/client';
import { DELETE_CONFIRMATION } from './MarkerEditForm';
import { MarkerPopup } from './MarkerPopup';
import { forgetPopupOpener } from './popupFocus';
import { keepsGoneMarker } from './useOpenMarker';

const questList = [
  { uid: 'q-delivery', name: 'Delivery from the Past', ruName: 'Посылка из прошлого', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' },
  { uid: 'q-bad-rep', name: 'Bad Rep Evidence', ruName: 'Компромат', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' },
];
const itemList = [
  { uid: 'i-key', name: 'Factory exit key', ruName: 'Ключ от выхода с завода' },
  { uid: 'i-gpu', name: 'Graphics card', ruName: 'Видеокарта' },
  { uid: 'i-cable', name: 'Video cable', ruName: 'Видеокабель' },
];

const safe: Marker = {
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
  imgs: [
    { img: '/uploads/sample/safe-1.webp', name: 'Door', desc: 'From the hall' },
    { img: '/uploads/sample/safe-2.webp', name: 'Inside', desc: '' },
  ],
  questUid: 'q-delivery',
  itemsUid: ['i-key'],
};
const exit: Marker = {
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
  imgs: [
    { img: '/uploads/sample/exit-1.webp', name: 'Gate', desc: '' },
    { img: '/uploads/sample/exit-2.webp', name: 'Gate side', desc: '' },
  ],
  itemsUid: [],
};

const admin: SessionUser = { name: 'admin', admin: true, pro: false, questsDone: [], questsHidden: [] };
const pro: SessionUser = { name: 'pro', admin: false, pro: true, questsDone: [], questsHidden: [] };
const visitor: SessionUser = { name: 'visitor', admin: false, pro: false, questsDone: [], questsHidden: [] };

useTestServer(
  http.get(`${BASE}/api/be/quests`, () => HttpResponse.json({ quests: questList })),
  http.get(`${BASE}/api/be/items`, () => HttpResponse.json({ items: itemList })),
  http.get(`${BASE}/api/be/user`, () => HttpResponse.json({ error: 'unauthorized' }, { status: 401 })),
);

useMemoryStorage();

beforeEach(() => {
  resetEditor();
  resetPopup();
  resetLookups();
  resetQuests();
  openMap('factory');
  loadFilters('factory');
});
afterEach(async () => {
  vi.restoreAllMocks();
  resetEditor();
  resetSession();
  closeMap();
  await setLanguage('en');
});

/**
 * The popup on a page whose editor is bound: the fake server holds both markers (version 1),
 * the worker the same copies; the sink tells the popup when a marker changed, as the wiring does.
 */
async function setup(user: SessionUser | null, { api, announcer = false }: { api?: (api: EditorApi) => EditorApi; announcer?: boolean } = {}) {
  setSessionUser(user);
  const server = fakeServer();
  const stored = [server.seed(safe), server.seed(exit)];
  const source = createLocalMarkerSource();
  await source.load(await new Response(JSON.stringify({ markers: stored })).arrayBuffer(), 'factory', 'en');
  const commands = createEditorCommands({
    api: api ? api(server.api) : server.api,
    mapId: 'factory',
    sink: {
      get: (uid) => source.get(uid),
      async upsert(marker) {
        await source.upsert(marker, 'en');
        markerChanged(marker.uid);
      },
      async remove(uid) {
        await source.remove(uid);
        // As the wiring's sink (wireEngine.ts): the open popup closes, unless it keeps the marker.
        if (mapView.selectedUid === uid && !keepsGoneMarker(uid)) selectMarker(null);
        markerChanged(uid);
      },
    },
  });
  bindEditor(commands);
  const page = (
    <>
      <MarkerPopup map={MAPS.factory} source={source} loaded />
      <WaitingConflicts />
      {/* The map page's live region (MapPage.tsx), where asked for. */}
      {announcer && <LiveAnnouncer />}
    </>
  );
  const router = createMemoryRouter([{ path: '/map/:mapId', element: page }], {
    initialEntries: ['/map/factory'],
  });
  render(<RouterProvider router={router} />);
  return { server, source, commands };
}

async function open(uid = 'm-safe', name = 'Office safe') {
  act(() => selectMarker(uid));
  return screen.findByRole('dialog', { name });
}

async function edit(uid = 'm-safe', name = 'Office safe') {
  const dialog = await open(uid, name);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }));
  return within(dialog).getByRole('form', { name: 'Edit marker' });
}

const field = (form: HTMLElement, name: string) => within(form).getByRole('textbox', { name }) as HTMLInputElement;
/** The base texts, shown only where the page's language has none (domain/marker.ts `localized`). */
const NAME = 'Name when no translation';
const DESC = 'Description when no translation';

/**
 * A marker deleted by another admin while "My safe" was typed into it, the form closed: the dock
 * says so; Show opens the form on the typed work with the conflict; Keep mine, then Save.
 */
async function bringBackFromDock(name: string) {
  const notice = await screen.findByRole('status');
  expect(notice).toHaveTextContent(`Another admin deleted “${name}” while you edited it: choose whether it comes back.`);
  await userEvent.click(within(notice).getByRole('button', { name: 'Show' }));
  const dialog = await screen.findByRole('dialog', { name });
  const again = within(dialog).getByRole('form', { name: 'Edit marker' });
  expect(field(again, 'Name (English)')).toHaveValue(name);
  const conflict = within(dialog).getByRole('alert', { name: 'Another admin deleted this marker' });
  await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
  await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
}

describe('marker popup edit mode: who sees it', () => {
  it.each([
    ['a visitor', null],
    ['a signed-in visitor', visitor],
    ['a pro user', pro],
  ])('shows %s no Edit button and no admin control, even with edit-on-open set', async (_who, user) => {
    setEditOnOpen(true);
    await setup(user);
    const dialog = await open();
    await within(dialog).findByRole('link', { name: 'Delivery from the Past' });
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(dialog).queryByRole('form')).toBeNull();
    for (const name of ['Save', 'Cancel', 'Copy', 'Delete', 'Retry', 'Keep mine', 'Take theirs', 'Show the history']) {
      expect(within(dialog).queryByRole('button', { name })).toBeNull();
    }
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(popup.mode).toBe('view');
    // Nor do the admin's keys do anything.
    const confirm = vi.spyOn(window, 'confirm');
    await userEvent.keyboard('{Enter}{Delete}');
    expect(confirm).not.toHaveBeenCalled();
    expect(popup.mode).toBe('view');
  });

  it('gives an admin the Edit button, and drops the edit when the admin signs out', async () => {
    await setup(admin);
    const form = await edit();
    expect(form).toBeInTheDocument();
    act(() => setSessionUser(null));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(popup.mode).toBe('view');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});

describe('marker popup edit mode', () => {
  it('shows every field with a label, filled from the marker', async () => {
    await setup(admin);
    const form = await edit();
    expect(field(form, NAME)).toHaveValue('Office safe');
    expect(field(form, 'Name (English)')).toHaveValue('Office safe');
    expect(field(form, 'Name (Russian)')).toHaveValue('Сейф в офисе');
    expect(field(form, DESC)).toHaveValue('Behind the desk');
    expect(field(form, 'Description (Russian)')).toHaveValue('');
    expect(within(form).getByRole('combobox', { name: 'Category' })).toHaveValue('Loot');
    expect(within(form).getByRole('combobox', { name: 'Subcategory' })).toHaveValue('Safe');
    expect(within(form).getByRole('spinbutton', { name: 'Level' })).toHaveValue(2);
    expect(within(form).getByText('Levels of this map: 3 — Level 3, 2 — Level 2, 1 — Main, -1 — Basement')).toBeInTheDocument();
    expect(await within(form).findByText('Linked quest: Delivery from the Past (q-delivery)')).toBeInTheDocument();
    expect(await within(form).findByRole('button', { name: 'Remove Factory exit key' })).toBeInTheDocument();
    expect(field(form, 'URL of image 2')).toHaveValue('/uploads/sample/safe-2.webp');
    expect(field(form, 'Name of image 1')).toHaveValue('Door');
    // A category change picks its first subcategory.
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), 'Extractions');
    expect(within(form).getByRole('combobox', { name: 'Subcategory' })).toHaveValue('PMC Extraction');
  });

  it('cancel restores the snapshot and sends nothing', async () => {
    const { server } = await setup(admin);
    let form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Renamed');
    await userEvent.click(within(form).getByRole('button', { name: 'Move image 1 down' }));
    expect(popup.draft?.name_l10n.en).toBe('Renamed');
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Office safe' });
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', '/uploads/sample/safe-1.webp');
    expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(server.writes()).toEqual([]);
    // Editing again starts from the marker, not from the dropped draft.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }));
    form = screen.getByRole('form', { name: 'Edit marker' });
    expect(field(form, 'Name (English)')).toHaveValue('Office safe');
    expect(field(form, 'URL of image 1')).toHaveValue('/uploads/sample/safe-1.webp');
  });

  it('save sends the trimmed draft with the version it was based on, then shows the saved marker', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    // Edit pressed: the keyboard is in the form's first field at once: the name the page shows.
    expect(field(form, 'Name (English)')).toHaveFocus();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), '  Big safe  ');
    await userEvent.type(field(form, 'Description (Russian)'), 'За столом');
    await userEvent.clear(field(form, 'Name of image 2'));
    await userEvent.type(field(form, 'Name of image 2'), ' Shelf ');
    const level = within(form).getByRole('spinbutton', { name: 'Level' });
    await userEvent.clear(level);
    await userEvent.type(level, '3');
    // Enter in a text box submits nothing.
    await userEvent.type(field(form, NAME), '{Enter}');
    expect(server.writes()).toEqual([]);
    expect(screen.getByRole('form')).toBeInTheDocument();

    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes()).toHaveLength(1);
    const [update] = server.writes();
    expect(update).toMatchObject({ op: 'update', uid: 'm-safe', version: 1 });
    expect(update.body).toMatchObject({
      name_l10n: { en: 'Big safe', ru: 'Сейф в офисе' },
      desc_l10n: { ru: 'За столом' },
      level: 3,
      imgs: [safe.imgs[0], { img: '/uploads/sample/safe-2.webp', name: 'Shelf', desc: '' }],
    });
    expect(popup.mode).toBe('view');
    const dialog = await screen.findByRole('dialog', { name: 'Big safe' });
    expect(within(dialog).getByText('Level').nextElementSibling).toHaveTextContent('Level 3');
    // Saved: the keyboard is back on Edit, not on the page's start.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus());
    expect(server.stored.get('m-safe')?.version).toBe(2);
  });

  it('refuses to save a level that is not a whole number, and says why', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    const level = within(form).getByRole('spinbutton', { name: 'Level' });
    await userEvent.clear(level);
    expect(within(form).getByText('The level must be a whole number.')).toBeInTheDocument();
    expect(level).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(server.writes()).toEqual([]);
  });

  it('refuses a level outside -5…10 next to the field, and warns of a level the map does not have', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    const level = within(form).getByRole('spinbutton', { name: 'Level' });
    await userEvent.clear(level);
    await userEvent.type(level, '11');
    expect(within(form).getByText('The level must be a whole number from -5 to 10.')).toBeInTheDocument();
    expect(level).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();

    await userEvent.clear(level);
    await userEvent.type(level, '7');
    expect(level).toHaveAttribute('aria-invalid', 'false');
    const warning = within(form).getByText(/has no level 7: the marker will show faded on every floor\./);
    expect(level.getAttribute('aria-describedby')).toContain(warning.id);
    expect(within(form).getByRole('button', { name: 'Save' })).toBeEnabled();

    await userEvent.clear(level);
    await userEvent.type(level, '2');
    expect(within(form).queryByText(/has no level/)).toBeNull();
    expect(server.writes()).toEqual([]);
  });

  it('delete asks "Are you sure?" and deletes only after yes', async () => {
    const { server } = await setup(admin);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure?');
    expect(server.writes()).toEqual([]);
    expect(screen.getByRole('form')).toBeInTheDocument();

    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.writes()).toEqual([{ op: 'delete', uid: 'm-safe', version: 1 }]);
    expect(mapView.selectedUid).toBeNull();
  });

  it('view mode: Enter opens the edit form; Delete, or the Delete button, deletes after "Are you sure?"', async () => {
    const { server } = await setup(admin, { announcer: true });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    let dialog = await open();
    expect(dialog).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const form = await within(dialog).findByRole('form', { name: 'Edit marker' });
    expect(field(form, 'Name (English)')).toHaveFocus();
    // In the form, Delete and Enter are the fields' (or the form's buttons').
    await userEvent.keyboard('{Delete}');
    expect(confirm).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    dialog = screen.getByRole('dialog', { name: 'Office safe' });
    const button = within(dialog).getByRole('button', { name: 'Delete' });
    expect(button).toHaveAttribute('aria-keyshortcuts', 'Delete');
    await userEvent.click(button);
    expect(confirm).toHaveBeenCalledWith('Are you sure?');
    expect(server.writes()).toEqual([]);

    // In edit or move mode the open marker is the editor's selection (`marker:{uid}`): Delete is still its.
    act(() => {
      editor.selectedShape = 'marker:m-safe';
      dialog.focus();
    });
    await userEvent.keyboard('{Delete}');
    expect(confirm).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.writes()).toEqual([{ op: 'delete', uid: 'm-safe', version: 1 }]);
    expect(mapView.selectedUid).toBeNull();
    // Said in the page's live region, as the form's Delete says it.
    expect(document.querySelector('.live-announcer[role="status"]')).toHaveTextContent('Marker deleted');
  });

  it('view mode: a failed delete brings the marker back, its popup saying why, with Retry', async () => {
    await setup(admin, {
      api: (api) => ({ ...api, deleteMarker: () => Promise.reject(new TypeError('Failed to fetch')) }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await userEvent.click(within(await open()).getByRole('button', { name: 'Delete' }));
    // The marker comes back (it left the map at once), its popup saying why, with Retry.
    const dialog = await screen.findByRole('dialog', { name: 'Office safe' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/not saved: Failed to fetch/);
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(mapView.selectedUid).toBe('m-safe');
  });

  it('copy arms the next map click and says so', async () => {
    await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Copy' }));
    expect(editor.copying).toBe('m-safe');
    expect(within(form).getByText('Click on the map where the copy should go.')).toBeInTheDocument();
  });

  it('copy takes what the form shows: the typed name goes to the copy, the marker keeps its saved one and its typed edit waits', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Second safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Copy' }));
    expect(within(form).getByText(/It takes what this form shows/)).toBeInTheDocument();
    // The map click that places it (wireEditor's mapclick) also closes this popup.
    let copy: Marker | null = null;
    await act(async () => {
      copy = await copyMarkerTo('m-safe', 10, 20);
      selectMarker(null);
    });
    expect(copy).toMatchObject({ name_l10n: { en: 'Second safe' }, geometry: { x: 10, y: 20 } });
    const add = server.writes().find((w) => w.op === 'add');
    expect(add).toMatchObject({ body: { name_l10n: { en: 'Second safe' } } });
    expect(server.writes().filter((w) => w.op === 'update')).toEqual([]);
    expect(popup.setAside).toMatchObject({ uid: 'm-safe', draft: { name_l10n: { en: 'Second safe' } } });
  });

  it('finds a quest by exact name in English or Russian or by uid, says when none matches, and links it', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    const search = within(form).getByRole('searchbox', { name: 'Find a quest' });
    await userEvent.type(search, 'Delivery{Enter}');
    expect(within(form).getByText('No quest matches “Delivery”.')).toBeInTheDocument();
    expect(screen.getByRole('form')).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, 'КОМПРОМАТ');
    await userEvent.click(within(form).getAllByRole('button', { name: 'Search' })[0]);
    expect(within(form).getByRole('list', { name: 'Quests found' })).toHaveTextContent('q-bad-rep');

    await userEvent.clear(search);
    await userEvent.type(search, '  bad rep evidence {Enter}');
    expect(within(form).getByRole('button', { name: 'Link Bad Rep Evidence' })).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, 'q-bad-rep{Enter}');
    await userEvent.click(within(form).getByRole('button', { name: 'Link Bad Rep Evidence' }));
    expect(within(form).getByText('Linked quest: Bad Rep Evidence (q-bad-rep)')).toBeInTheDocument();
    expect(search).toHaveValue('');

    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.writes()).toHaveLength(1));
    expect(server.writes()[0].body?.questUid).toBe('q-bad-rep');
  });

  it('removes the quest link', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.click(await within(form).findByRole('button', { name: 'Remove the quest link' }));
    expect(within(form).getByText('No quest linked.')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.writes()).toHaveLength(1));
    expect(server.writes()[0].body?.questUid).toBeNull();
  });

  it('finds items by a part of the Russian name, adds and removes them', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    const search = within(form).getByRole('searchbox', { name: 'Find an item' });
    await userEvent.type(search, 'ВИДЕО{Enter}');
    const found = within(form).getByRole('list', { name: 'Items found' });
    expect(within(found).getAllByRole('button').map((b) => b.textContent)).toEqual(['Add Graphics card', 'Add Video cable']);
    await userEvent.click(within(found).getByRole('button', { name: 'Add Graphics card' }));
    expect(within(found).getByText('Graphics card (already added)')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Remove Factory exit key' }));

    await userEvent.clear(search);
    await userEvent.type(search, 'nothing like it{Enter}');
    expect(within(form).getByText('No item matches “nothing like it”.')).toBeInTheDocument();

    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.writes()).toHaveLength(1));
    expect(server.writes()[0].body?.itemsUid).toEqual(['i-gpu']);
  });

  it('reorders, removes and adds images', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    expect(within(form).getByRole('button', { name: 'Move image 1 up' })).toBeDisabled();
    expect(within(form).getByRole('button', { name: 'Move image 2 down' })).toBeDisabled();
    await userEvent.click(within(form).getByRole('button', { name: 'Move image 2 up' }));
    expect(field(form, 'URL of image 1')).toHaveValue('/uploads/sample/safe-2.webp');
    expect(field(form, 'Name of image 2')).toHaveValue('Door');
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'URL of image 3'), '/uploads/sample/extra.webp');
    await userEvent.click(within(form).getByRole('button', { name: 'Remove image 2' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.writes()).toHaveLength(1));
    expect(server.writes()[0].body?.imgs).toEqual([
      { img: '/uploads/sample/safe-2.webp', name: 'Inside', desc: '' },
      { img: '/uploads/sample/extra.webp', name: '', desc: '' },
    ]);
  });

  it('an added image with text but no file is refused with a clear message', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'Name of image 3'), 'Shelf');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Image 3 has no file: upload one, give its URL or remove the image.');
    expect(server.writes()).toEqual([]);
  });

  it('refuses an image URL the server would refuse, saying why in the page\'s words (not the rule\'s), saving nothing', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'URL of image 3'), 'javascript:alert(1)');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Image 3: its address must be a path on this site (/uploads/…) or an http(s) URL.');
    expect(within(form).getByRole('alert')).not.toHaveTextContent('imgs.2.img');
    expect(server.writes()).toEqual([]);
  });

  it('uploads a file with a progress bar; the save after it is based on the new version', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { server } = await setup(admin, {
      api: (api) => ({
        ...api,
        async uploadMarkerImage(args) {
          args.onProgress?.(0.4);
          await gate;
          args.onProgress?.(1);
          return api.uploadMarkerImage(args);
        },
      }),
    });
    const form = await edit();
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'door.png', { type: 'image/png' });
    await userEvent.upload(within(form).getByLabelText('Upload a file for image 1'), png);
    const progress = await within(form).findByRole('progressbar', { name: 'Upload of image 1' });
    expect(progress).toHaveAttribute('value', '0.4');
    expect(within(form).getByText('Uploading image 1: 40%')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Move image 1 down' })).toBeDisabled();
    // No save while the upload moves the version on.
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();
    await act(async () => release());
    expect(await within(form).findByText('Image 1 uploaded.')).toBeInTheDocument();
    expect(within(form).queryByRole('progressbar')).toBeNull();
    expect(field(form, 'URL of image 1')).toHaveValue('/img/markers/m-safe-0-door.png');
    expect(popup.draft?.version).toBe(2);
    expect(within(form).getByRole('button', { name: 'Save' })).toBeEnabled();

    await userEvent.clear(field(form, NAME));
    await userEvent.type(field(form, NAME), 'Safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes().map((w) => [w.op, w.version])).toEqual([
      ['upload', undefined],
      ['update', 2],
    ]);
    expect(server.stored.get('m-safe')?.imgs[0]).toEqual({ img: '/img/markers/m-safe-0-door.png', name: 'Door', desc: 'From the hall' });
  });

  it('refuses a file that is not an image or is too big, and a failed upload, changing nothing', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { server } = await setup(admin, {
      api: (api) => ({
        ...api,
        uploadMarkerImage: async () => Promise.reject(new Error('disk full')),
      }),
    });
    const form = await edit();
    const input = within(form).getByLabelText('Upload a file for image 2');
    await user.upload(input, new File(['just text'], 'notes.txt', { type: 'text/plain' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('“notes.txt” is not a PNG, JPEG or WebP image. Nothing was changed.');
    await user.upload(input, new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('“huge.png” is larger than 5 MB: choose a smaller image. Nothing was changed.');
    expect(server.writes()).toEqual([]);

    await user.upload(input, new File([new Uint8Array([1, 2, 3])], 'ok.webp', { type: 'image/webp' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('The upload failed, nothing was changed: disk full');
    expect(field(form, 'URL of image 2')).toHaveValue('/uploads/sample/safe-2.webp');
    expect(popup.draft?.version).toBe(1);
  });

  it('shows another admin’s version on a refused save; Take theirs ends the edit on their version', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    server.seed({ ...safe, name_l10n: { en: 'Their safe', ru: 'Сейф в офисе' }, level: 1 });
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    const rows = within(conflict).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    // Only what this admin changed: their level is not "mine" (it stays, whatever is chosen).
    expect(rows).toEqual([
      ['Field', 'Yours', 'Theirs'],
      ['Name (English)', 'My safe', 'Their safe'],
    ]);
    await userEvent.click(within(conflict).getByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(editor.conflict).toBeNull();
    await screen.findByRole('dialog', { name: 'Their safe' });
    expect(server.writes()).toHaveLength(1);
  });

  it('shows the open marker’s conflict while another marker’s conflict waits unresolved', async () => {
    const { server, commands } = await setup(admin);
    // An earlier refused save of the exit, left unresolved (its popup was closed).
    server.seed({ ...exit, name: 'Their exit' });
    await act(async () => {
      await commands.saveMarker({ ...exit, version: 1, name: 'My exit' });
    });
    expect(editor.conflict).toMatchObject({ uid: 'm-exit' });

    const form = await edit();
    server.seed({ ...safe, desc: 'Moved to the cellar' });
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    expect(within(conflict).getByText('My safe')).toBeInTheDocument();
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await screen.findByRole('dialog', { name: 'My safe' });
    expect(server.stored.get('m-safe')).toMatchObject({ desc: 'Moved to the cellar', name_l10n: { en: 'My safe' } });
    // The exit's conflict still waits for its own popup; nothing was sent for it.
    expect(Object.keys(editor.conflicts)).toEqual(['m-exit']);
    expect(server.stored.get('m-exit')).toMatchObject({ name: 'Their exit' });
  });

  it('a marker moved while its form is open saves with the move kept, not as a conflict', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    await act(async () => {
      await moveMarker('m-safe', { x: 1234, y: 2345 });
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'My safe' });
    expect(screen.queryByRole('alert', { name: 'Another admin changed this marker' })).toBeNull();
    expect(server.stored.get('m-safe')).toMatchObject({ version: 3, geometry: { x: 1234, y: 2345 }, name_l10n: { en: 'My safe' } });
    expect(editor.conflicts).toEqual({});
  });

  it('an undo of the save before while the form is open: untouched fields show the undone values, typed ones stay, Save sends only those', async () => {
    const { server } = await setup(admin);
    let form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'first save');
    const level = () => within(form).getByRole('spinbutton', { name: 'Level' });
    await userEvent.clear(level());
    await userEvent.type(level(), '3');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'first save' });
    expect(server.stored.get('m-safe')).toMatchObject({ version: 2, level: 3, name_l10n: { en: 'first save', ru: 'Сейф в офисе' } });

    form = await edit('m-safe', 'first save');
    await userEvent.clear(field(form, 'Name (Russian)'));
    await userEvent.type(field(form, 'Name (Russian)'), 'typed ru');
    await act(async () => {
      await undo();
    });
    expect(server.stored.get('m-safe')).toMatchObject({ version: 3, level: 2, name_l10n: { en: 'Office safe', ru: 'Сейф в офисе' } });
    // The form is the typed change over the undone marker, not the copy it opened on.
    await waitFor(() => expect(field(form, 'Name (English)')).toHaveValue('Office safe'));
    expect(field(form, 'Name (Russian)')).toHaveValue('typed ru');
    expect(level()).toHaveValue(2);

    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    const last = server.writes().at(-1)!;
    expect(last).toMatchObject({ op: 'update', uid: 'm-safe', version: 3 });
    expect(server.stored.get('m-safe')).toMatchObject({ version: 4, level: 2, name_l10n: { en: 'Office safe', ru: 'typed ru' }, desc_l10n: {} });
    await screen.findByRole('dialog', { name: 'Office safe' });
  });

  it('Ctrl+Z on the form’s buttons is the map’s undo alone (the browser’s own undo is stopped); in a text field it is the field’s', async () => {
    await setup(admin);
    const form = await edit();
    const cancel = within(form).getByRole('button', { name: 'Cancel' });
    // fireEvent answers false where the default action was prevented.
    expect(fireEvent.keyDown(cancel, { key: 'z', ctrlKey: true })).toBe(false);
    expect(fireEvent.keyDown(cancel, { key: 'Z', ctrlKey: true, shiftKey: true })).toBe(false);
    expect(fireEvent.keyDown(within(form).getByRole('combobox', { name: 'Category' }), { key: 'z', metaKey: true })).toBe(false);
    expect(fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true })).toBe(false);
    expect(fireEvent.keyDown(field(form, 'Name (Russian)'), { key: 'z', ctrlKey: true })).toBe(true);
    expect(fireEvent.keyDown(within(form).getByRole('textbox', { name: DESC }), { key: 'z', ctrlKey: true })).toBe(true);
    expect(fireEvent.keyDown(cancel, { key: 'c', ctrlKey: true })).toBe(true);
    // The form closed: the browser's undo is left alone again.
    await userEvent.click(cancel);
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true })).toBe(true);
  });

  it('a text typed into an empty language and erased again is no change: Save never writes an empty text', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.type(field(form, 'Description (English)'), 'x');
    await userEvent.clear(field(form, 'Description (English)'));
    expect(popup.draft?.desc_l10n).toEqual({});
    await userEvent.type(field(form, NAME), '!');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes().at(-1)?.body).toMatchObject({ name: 'Office safe!', desc_l10n: {} });
    expect(server.stored.get('m-safe')?.desc_l10n).toEqual({});
  });

  it('Keep mine of a refused save sends mine again on their version, their other changes kept', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    server.seed({ ...safe, desc: 'Moved to the cellar' });
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await screen.findByRole('dialog', { name: 'My safe' });
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes().map((w) => [w.op, w.version])).toEqual([
      ['update', 1],
      ['update', 2],
    ]);
    expect(server.stored.get('m-safe')).toMatchObject({ version: 3, desc: 'Moved to the cellar', name_l10n: { en: 'My safe' } });
  });

  it('a refused save lists only the fields this admin changed; Keep mine keeps the other admin’s move', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    // Another admin moves the marker; this page has not heard of it yet.
    server.seed({ ...safe, geometry: { x: 900, y: 950 } });
    await userEvent.clear(within(form).getByRole('textbox', { name: DESC }));
    await userEvent.type(within(form).getByRole('textbox', { name: DESC }), 'Under the desk');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    const rows = within(conflict).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Field', 'Yours', 'Theirs'],
      [DESC, 'Under the desk', 'Behind the desk'],
    ]);
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.stored.get('m-safe')).toMatchObject({ version: 3, desc: 'Under the desk', geometry: { x: 900, y: 950 } });
  });

  it('a change by another admin while editing: Keep mine goes on editing on their version', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    const theirs = server.seed({ ...safe, desc: 'Moved to the cellar' });
    await act(() => receiveRemoteChange({ kind: 'upsert', map: 'factory', marker: theirs, by: 'bob' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    // Only what was typed here is "mine": their description is not listed (it stays).
    expect(conflict).toHaveTextContent('My safe');
    expect(conflict).not.toHaveTextContent('Behind the desk');
    // Save waits for the choice.
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    expect(screen.queryByRole('alert', { name: 'Another admin changed this marker' })).toBeNull();
    // Still editing, with what was typed, now on their version (their description shown).
    expect(field(form, 'Name (English)')).toHaveValue('My safe');
    expect(within(form).getByRole('textbox', { name: DESC })).toHaveValue('Moved to the cellar');
    expect(popup.draft?.version).toBe(2);
    expect(server.writes()).toEqual([]);
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes().map((w) => [w.op, w.version])).toEqual([['update', 2]]);
    expect(server.stored.get('m-safe')).toMatchObject({ version: 3, desc: 'Moved to the cellar', name_l10n: { en: 'My safe' } });
  });

  it('another admin moves the marker while its description is edited: Keep mine + Save keeps both', async () => {
    const { server, source } = await setup(admin);
    const form = await edit();
    await userEvent.clear(within(form).getByRole('textbox', { name: DESC }));
    await userEvent.type(within(form).getByRole('textbox', { name: DESC }), 'Under the desk');
    const theirs = server.seed({ ...safe, geometry: { x: 900, y: 950 } });
    await act(() => receiveRemoteChange({ kind: 'upsert', map: 'factory', marker: theirs, by: 'bob' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    const rows = within(conflict).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Field', 'Yours', 'Theirs'],
      [DESC, 'Under the desk', 'Behind the desk'],
    ]);
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.stored.get('m-safe')).toMatchObject({ version: 3, desc: 'Under the desk', geometry: { x: 900, y: 950 } });
    expect(await source.get('m-safe')).toMatchObject({ desc: 'Under the desk', geometry: { x: 900, y: 950 } });
  });

  it('another admin uploads an image while the name is edited: Keep mine + Save keeps the image', async () => {
    const { server } = await setup(admin);
    const form = await edit('m-exit', 'Gate 3');
    await userEvent.clear(field(form, NAME));
    await userEvent.type(field(form, NAME), 'Gate 3 (north)');
    const imgs = [...exit.imgs, { img: '/img/markers/m-exit-2-new.webp', name: '', desc: '' }];
    const theirs = server.seed({ ...exit, imgs });
    await act(() => receiveRemoteChange({ kind: 'upsert', map: 'factory', marker: theirs, by: 'bob' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin changed this marker' });
    const rows = within(conflict).getAllByRole('row').map((row) => row.querySelector('th, td')?.textContent);
    expect(rows).toEqual(['Field', NAME]);
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.stored.get('m-exit')).toMatchObject({ version: 3, name: 'Gate 3 (north)', imgs });
  });

  it('a delete by another admin while editing keeps the form; Take theirs closes the popup', async () => {
    const { server, source } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    const version = server.remove('m-safe');
    await act(() => receiveRemoteChange({ kind: 'remove', map: 'factory', uid: 'm-safe', version, by: 'bob' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin deleted this marker' });
    expect(conflict).toHaveTextContent('Another admin deleted this marker while you changed it.');
    expect(screen.getByRole('form')).toBeInTheDocument();
    expect(field(form, 'Name (English)')).toHaveValue('My safe');
    expect(mapView.selectedUid).toBe('m-safe');
    await userEvent.click(within(conflict).getByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mapView.selectedUid).toBeNull();
    expect(editor.conflicts).toEqual({});
    expect(popup.setAside).toBeNull();
    expect(server.writes()).toEqual([]);
    expect(await source.get('m-safe')).toBeNull();
  });

  it('a delete by another admin while editing: Keep mine + Save brings it back, same uid, with the typed fields', async () => {
    const { server, source } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    const version = server.remove('m-safe');
    await act(() => receiveRemoteChange({ kind: 'remove', map: 'factory', uid: 'm-safe', version, by: 'bob' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin deleted this marker' });
    expect(conflict).toHaveTextContent('Save brings the marker back with your changes');
    await userEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    expect(screen.queryByRole('alert', { name: 'Another admin deleted this marker' })).toBeNull();
    expect(field(form, 'Name (English)')).toHaveValue('My safe');
    expect(server.writes()).toEqual([]);
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'My safe' });
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.writes().map((w) => [w.op, w.uid])).toEqual([['add', 'm-safe']]);
    expect(server.stored.get('m-safe')).toMatchObject({ uid: 'm-safe', name: 'Office safe', name_l10n: { en: 'My safe' }, desc: 'Behind the desk', version: version + 1 });
    expect(await source.get('m-safe')).toMatchObject({ name_l10n: { en: 'My safe' } });
  });

  it('a delete by another admin, the popup closed: the dock says deleted, and Show brings the form back with the conflict', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    const version = server.remove('m-safe');
    await act(() => receiveRemoteChange({ kind: 'remove', map: 'factory', uid: 'm-safe', version, by: 'bob' }));
    await screen.findByRole('alert', { name: 'Another admin deleted this marker' });
    act(() => selectMarker(null));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await bringBackFromDock('My safe');
    expect(server.stored.get('m-safe')).toMatchObject({ uid: 'm-safe', name_l10n: { en: 'My safe' } });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a delete by another admin, the popup closed: Show then Take theirs leaves it deleted and drops the typed work', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    const version = server.remove('m-safe');
    await act(() => receiveRemoteChange({ kind: 'remove', map: 'factory', uid: 'm-safe', version, by: 'bob' }));
    act(() => selectMarker(null));
    await userEvent.click(within(await screen.findByRole('status')).getByRole('button', { name: 'Show' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin deleted this marker' });
    await userEvent.click(within(conflict).getByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mapView.selectedUid).toBeNull();
    expect(popup.setAside).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(server.writes()).toEqual([]);
  });

  it('a save that failed shows why and a Retry that saves it', async () => {
    const { server } = await setup(admin);
    server.failNext('update');
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Offline safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const failed = await within(form).findByRole('alert');
    expect(failed).toHaveTextContent('Your change is not saved: the server could not be reached. Try again.');
    expect(screen.getByRole('form')).toBeInTheDocument();
    await userEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.stored.get('m-safe')?.name_l10n.en).toBe('Offline safe');
    expect(editor.pending).toEqual({});
  });

  it('a save refused because the session ended says so; sent again once the admin signed in, the edit ends as a save', async () => {
    const { server } = await setup(admin);
    server.failNext('update', new ApiError('/api/be/admin/marker/update', 401, 'unauthorized', 'sign in first'));
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Signed-out safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const failed = await within(form).findByRole('alert');
    expect(failed).toHaveTextContent('Your change is not saved: your session has ended. Sign in as an admin and it is saved.');
    // The page sends it again after the sign-in (ui/map/signInToSave.ts), not this form's Retry.
    const release = server.hold();
    const resending = retrySave('m-safe');
    await within(form).findByText('Saving your change…');
    release();
    await resending;
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(server.stored.get('m-safe')?.name_l10n.en).toBe('Signed-out safe');
  });

  it('shows the history on demand: who, when, what changed', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    expect(server.calls.filter((c) => c.op === 'history')).toEqual([]);
    await userEvent.click(within(form).getByRole('button', { name: 'Show the history' }));
    const history = within(form).getByRole('region', { name: 'History' });
    const entry = await within(history).findByText(/^Created by ann, .* \(version 1\)$/);
    expect(entry).toBeInTheDocument();
    expect(within(history).getByText('Name (English):').parentElement).toHaveTextContent('Name (English): (empty) → Office safe');
    expect(within(history).getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    // Images one by one (not a joined list cut to a line), categories by their names.
    expect(within(history).getByText('Image added: Door')).toBeInTheDocument();
    expect(within(history).getByText('Image added: Inside')).toBeInTheDocument();
    expect(within(history).getByText('Category:').parentElement).toHaveTextContent('Category: (empty) → Loot');
  });

  it('opening another marker goes back to view mode at image 1; edit-on-open opens each marker in edit mode once', async () => {
    await setup(admin);
    await edit();
    act(() => selectMarker('m-exit'));
    const exitDialog = await screen.findByRole('dialog', { name: 'Gate 3' });
    expect(screen.queryByRole('form')).toBeNull();
    expect(exitDialog).toHaveTextContent('1 / 2');
    expect(popup.mode).toBe('view');

    act(() => setEditOnOpen(true));
    act(() => selectMarker('m-safe'));
    const form = await screen.findByRole('form', { name: 'Edit marker' });
    expect(field(form, 'Name (English)')).toHaveValue('Office safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    // It stays in view mode after Cancel, even when the marker is read again.
    act(() => markerChanged('m-safe'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('Escape in a field cancels the edit and keeps the popup; another Escape closes it', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    await userEvent.type(field(form, 'Name (Russian)'), ' 2');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Office safe' });
    expect(within(dialog).getByRole('button', { name: 'Edit' })).toHaveFocus();
    expect(server.writes()).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('writes what was typed as text, never as markup', async () => {
    await setup(admin);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    await userEvent.type(field(form, 'URL of image 3'), '/x.webp');
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), '<b>bold</b>');
    await userEvent.type(field(form, DESC), ' <img src=x onerror=alert(1)>');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: '<b>bold</b>' });
    expect(dialog.querySelector('b')).toBeNull();
    expect(dialog).toHaveTextContent('Behind the desk <img src=x onerror=alert(1)>');
    expect(dialog.querySelectorAll('img')).toHaveLength(1);
  });
});

describe('marker popup edit mode: typed work set aside', () => {
  /** The dock's set-aside notice, rendered beside the popup. */
  const dock = () => render(<SetAsideNotice />);

  it('Escape in a field with typed changes sets them aside; Back to them brings the form back as it was', async () => {
    const { server } = await setup(admin);
    dock();
    const form = await edit();
    await userEvent.type(field(form, 'Name (Russian)'), ' 2');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    expect(popup.setAside).toMatchObject({ uid: 'm-safe', draft: { name_l10n: { ru: 'Сейф в офисе 2' } } });
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Your unsaved changes to “Office safe” were kept when its form closed.');
    await userEvent.click(within(notice).getByRole('button', { name: 'Back to them' }));
    const again = await screen.findByRole('form', { name: 'Edit marker' });
    expect(field(again, 'Name (Russian)')).toHaveValue('Сейф в офисе 2');
    expect(server.writes()).toEqual([]);
  });

  it('Escape without typed changes sets nothing aside; Cancel still drops typed changes', async () => {
    await setup(admin);
    dock();
    let form = await edit();
    field(form, 'Name (English)').focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    expect(popup.setAside).toBeNull();
    form = await edit();
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(popup.setAside).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('work set aside for a marker another admin then deletes is kept: the dock says deleted; Show, Keep mine + Save brings it back (same uid)', async () => {
    const { server, source } = await setup(admin);
    dock();
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    act(() => selectMarker(null));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('status')).toHaveTextContent('Your unsaved changes to “My safe” were kept');
    const version = server.remove('m-safe');
    await act(() => receiveRemoteChange({ kind: 'remove', map: 'factory', uid: 'm-safe', version, by: 'bob' }));
    expect(await source.get('m-safe')).toBeNull();
    await bringBackFromDock('My safe');
    expect(server.writes().map((w) => [w.op, w.uid])).toEqual([['add', 'm-safe']]);
    expect(server.stored.get('m-safe')).toMatchObject({ uid: 'm-safe', name_l10n: { en: 'My safe' } });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('work set aside for a marker deleted while another form is open: the delete is its conflict; Take theirs drops it, the open form untouched', async () => {
    const { server } = await setup(admin);
    dock();
    const form = await edit();
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    const exitForm = await edit('m-exit', 'Gate 3');
    await userEvent.type(field(exitForm, NAME), ' X');
    expect(popup.setAside).toMatchObject({ uid: 'm-safe' });
    const version = server.remove('m-safe');
    await act(() => receiveRemoteChange({ kind: 'remove', map: 'factory', uid: 'm-safe', version, by: 'bob' }));
    expect(editor.conflicts['m-safe']).toMatchObject({ theirs: null, mine: { name_l10n: { en: 'Office safe 2' } } });
    expect(editor.conflicts['m-exit']).toBeUndefined();
    expect(field(exitForm, NAME)).toHaveValue('Gate 3 X');
    const notice = (await screen.findByText('Another admin deleted “Office safe 2” while you edited it: choose whether it comes back.')).closest('[role="status"]') as HTMLElement;
    await userEvent.click(within(notice).getByRole('button', { name: 'Show' }));
    const conflict = await screen.findByRole('alert', { name: 'Another admin deleted this marker' });
    await userEvent.click(within(conflict).getByRole('button', { name: 'Take theirs' }));
    await waitFor(() => expect(mapView.selectedUid).toBeNull());
    // The exit's typed work was set aside in turn when the safe's form came back.
    expect(popup.setAside).toMatchObject({ uid: 'm-exit', draft: { name: 'Gate 3 X' } });
    expect(server.writes()).toEqual([]);
  });

  it('Back to them on a marker gone from the page unheard (no conflict) still opens the form on the typed work', async () => {
    const { source } = await setup(admin);
    dock();
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'My safe');
    act(() => selectMarker(null));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await act(() => source.remove('m-safe'));
    await userEvent.click(within(await screen.findByRole('status')).getByRole('button', { name: 'Back to them' }));
    const again = await screen.findByRole('form', { name: 'Edit marker' });
    expect(field(again, 'Name (English)')).toHaveValue('My safe');
    expect(mapView.selectedUid).toBe('m-safe');
  });

  it('a failed save whose form was closed: once Retry saves it, the set-aside notice goes', async () => {
    const { server } = await setup(admin);
    dock();
    server.failNext('update');
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Offline safe ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const failed = await within(form).findByRole('alert');
    expect(failed).toHaveTextContent('Your change is not saved');
    act(() => selectMarker(null));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(popup.setAside).toMatchObject({ uid: 'm-safe' });
    const dialog = await open('m-safe', 'Offline safe');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(server.stored.get('m-safe')?.name_l10n.en).toBe('Offline safe'));
    await waitFor(() => expect(popup.setAside).toBeNull());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a Retry keeps set-aside work beyond what it saved', async () => {
    const { server } = await setup(admin);
    server.failNext('update');
    const form = await edit();
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Offline safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await within(form).findByRole('alert');
    await userEvent.type(field(form, DESC), ' more');
    act(() => selectMarker(null));
    await act(() => retrySave('m-safe'));
    expect(server.stored.get('m-safe')?.name_l10n.en).toBe('Offline safe');
    expect(popup.setAside).toMatchObject({ uid: 'm-safe', draft: { desc: 'Behind the desk more' } });
  });
});

describe('what a screen reader hears of a save', () => {
  /** The page's polite live region (LiveAnnouncer.tsx). */
  const live = () => {
    const region = document.querySelector('.live-announcer') as HTMLElement;
    expect(region).toHaveAttribute('role', 'status');
    return region;
  };
  /** Saves held until `release` is called. */
  function heldSaves() {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    return { release: () => release(), api: (api: EditorApi): EditorApi => ({ ...api, updateMarker: (marker) => gate.then(() => api.updateMarker(marker)) }) };
  }

  it('says "Saving…" while the save is on its way and "Saved" once done, in a region that outlives the form', async () => {
    const held = heldSaves();
    await setup(admin, { api: held.api, announcer: true });
    const form = await edit();
    expect(live()).toHaveTextContent(/^$/);
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(live()).toHaveTextContent(/^Saving…$/);
    act(() => held.release());
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(live()).toHaveTextContent(/^Saved$/);
    await screen.findByRole('dialog', { name: 'Office safe 2' });
  });

  it('says it again on the next save (a new node, so the same words are read again)', async () => {
    await setup(admin, { announcer: true });
    let form = await edit();
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(live()).toHaveTextContent(/^Saved$/));
    const first = live().firstElementChild;
    const dialog = await screen.findByRole('dialog', { name: 'Office safe 2' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }));
    form = within(dialog).getByRole('form', { name: 'Edit marker' });
    await userEvent.type(field(form, 'Name (English)'), '3');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(live()).toHaveTextContent(/^Saved$/);
    expect(live().firstElementChild).not.toBe(first);
  });

  it('a failed save is an alert, and the polite region no longer says "Saving…"', async () => {
    const { server } = await setup(admin, { announcer: true });
    server.failNext('update');
    const form = await edit();
    await userEvent.type(field(form, 'Name (English)'), ' 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const failed = await within(form).findByRole('alert');
    expect(failed).toHaveTextContent('Your change is not saved: the server could not be reached. Try again.');
    await waitFor(() => expect(live()).toHaveTextContent(/^$/));
    // Retry from the form: "Saved" as for a save.
    await userEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(live()).toHaveTextContent(/^Saved$/);
  });

  it('speaks Russian in Russian', async () => {
    await setLanguage('ru');
    const held = heldSaves();
    await setup(admin, { api: held.api, announcer: true });
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Изменить' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Название (русский)' }), ' 2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(live()).toHaveTextContent(/^Сохранение…$/);
    act(() => held.release());
    await waitFor(() => expect(live()).toHaveTextContent(/^Сохранено$/));
  });

  it('says "Deleting…", then "Marker deleted" as the popup closes', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await setup(admin, { announcer: true, api: (api) => ({ ...api, deleteMarker: (uid, version) => gate.then(() => api.deleteMarker(uid, version)) }) });
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    expect(live()).toHaveTextContent(/^Deleting…$/);
    act(() => release());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(live()).toHaveTextContent(/^Marker deleted$/);
  });
});

describe('where the focus goes when a Delete closes the popup', () => {
  /** The map page's canvas (MapCanvas.tsx: not a Tab stop) and a panel's Find a marker field. */
  let remove = () => undefined as void;
  function pageAround() {
    const before = document.createElement('div');
    before.innerHTML = '<div class="map-canvas" role="application" aria-label="Factory map"></div><input aria-label="Find a marker" />';
    document.body.prepend(before);
    remove = () => before.remove();
    return {
      canvas: before.querySelector<HTMLElement>('.map-canvas')!,
      find: before.querySelector<HTMLInputElement>('input')!,
    };
  }
  afterEach(() => {
    remove();
    forgetPopupOpener();
  });

  it('the form\'s Delete, on a marker opened from the map: the focus on the map canvas, not the page\'s body', async () => {
    const { canvas } = pageAround();
    await setup(admin);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const form = await edit();
    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(canvas).toHaveFocus());
    // Focusable by script only: not a Tab stop.
    expect(canvas).toHaveAttribute('tabindex', '-1');
  });

  it('view mode\'s Delete (the key or the button): the same', async () => {
    const { canvas } = pageAround();
    await setup(admin);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const dialog = await open();
    expect(dialog).toHaveFocus();
    await userEvent.keyboard('{Delete}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(canvas).toHaveFocus());
    expect(document.body).not.toHaveFocus();
  });

  it('back to the control that opened the popup (Find a marker), while it can take the focus; else the map', async () => {
    const { canvas, find } = pageAround();
    await setup(admin);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    act(() => find.focus());
    const dialog = await open();
    expect(dialog).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(find).toHaveFocus());

    // The field went (the panel closed) while the popup was open: the map.
    act(() => find.focus());
    const other = await open('m-exit', 'Gate 3');
    find.remove();
    await userEvent.click(within(other).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(canvas).toHaveFocus());
  });
});

describe('the texts the page shows come first (formfix)', () => {
  const texts = (form: HTMLElement, group = 'Name and description') =>
    within(within(form).getByRole('group', { name: group }))
      .getAllByRole('textbox')
      .map((box) => box.getAttribute('lang') ?? 'base');

  it('English page: the English name takes the focus, then the Russian, then the fallback; a rename shows at once', async () => {
    const { server } = await setup(admin);
    const form = await edit();
    expect(texts(form)).toEqual(['en', 'ru', 'base', 'en', 'ru', 'base']);
    expect(field(form, 'Name (English)')).toHaveFocus();
    expect(field(form, NAME)).toHaveAccessibleDescription(/the texts “when no translation” show where that language has none/);
    await userEvent.clear(field(form, 'Name (English)'));
    await userEvent.type(field(form, 'Name (English)'), 'Big safe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    // The title the admin sees is the typed name, not the old translation.
    await screen.findByRole('dialog', { name: 'Big safe' });
    expect(server.stored.get('m-safe')).toMatchObject({ name: 'Office safe', name_l10n: { en: 'Big safe', ru: 'Сейф в офисе' } });
  });

  it('Russian page: the Russian name first and focused; its rename is the Russian title, the fallback name untouched', async () => {
    await setLanguage('ru');
    const { server } = await setup(admin);
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Изменить' }));
    const form = within(dialog).getByRole('form', { name: 'Изменение метки' });
    expect(texts(form, 'Название и описание')).toEqual(['ru', 'en', 'base', 'ru', 'en', 'base']);
    const ru = field(form, 'Название (русский)');
    expect(ru).toHaveFocus();
    expect(field(form, 'Название, если нет перевода')).toHaveValue('Office safe');
    await userEvent.clear(ru);
    await userEvent.type(ru, 'Большой сейф');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await screen.findByRole('dialog', { name: 'Большой сейф' });
    expect(server.stored.get('m-safe')).toMatchObject({ name: 'Office safe', name_l10n: { en: 'Office safe', ru: 'Большой сейф' } });
  });

  it('Russian page: both deletes ask "Вы уверены?"; the English words stay the spec\'s', async () => {
    expect(DELETE_CONFIRMATION).toBe('Are you sure?');
    await setLanguage('ru');
    await setup(admin);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(confirm).toHaveBeenLastCalledWith('Вы уверены?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Изменить' }));
    const form = within(dialog).getByRole('form', { name: 'Изменение метки' });
    await userEvent.click(within(form).getByRole('button', { name: 'Удалить' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenLastCalledWith('Вы уверены?');
  });

  it('Russian page: the server refusing a fake image (text named .png) reads in Russian', async () => {
    await setLanguage('ru');
    await setup(admin, {
      api: (api) => ({
        ...api,
        uploadMarkerImage: async () =>
          Promise.reject(new ApiError('/api/be/admin/maps/marker/upload/base64', 400, 'Bad Request', 'base64: the file is not a PNG, JPEG or WebP image')),
      }),
    });
    act(() => selectMarker('m-safe'));
    const dialog = await screen.findByRole('dialog', { name: 'Сейф в офисе' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Изменить' }));
    const form = within(dialog).getByRole('form', { name: 'Изменение метки' });
    await userEvent.upload(within(form).getByLabelText('Загрузить файл для изображения 1'), new File(['just text'], 'fake.png', { type: 'image/png' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      /^Загрузка не удалась, ничего не изменено: изображения должны быть файлами PNG, JPEG или WebP\.$/,
    );
  });

  it('each image row has a small lazy thumbnail named after the image; a new image without a URL has none', async () => {
    await setup(admin);
    const form = await edit();
    const thumbs = within(form).getAllByRole('img');
    expect(thumbs.map((img) => [img.getAttribute('alt'), img.getAttribute('src'), img.getAttribute('loading'), img.getAttribute('width'), img.getAttribute('height')])).toEqual([
      ['Door', '/uploads/sample/safe-1.webp', 'lazy', '56', '56'],
      ['Inside', '/uploads/sample/safe-2.webp', 'lazy', '56', '56'],
    ]);
    await userEvent.click(within(form).getByRole('button', { name: 'Move image 2 up' }));
    expect(within(form).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['Inside', 'Door']);
    await userEvent.click(within(form).getByRole('button', { name: 'Add an image' }));
    expect(within(form).getAllByRole('img')).toHaveLength(2);
    await userEvent.type(field(form, 'URL of image 3'), '/uploads/sample/extra.webp');
    expect(within(form).getByRole('img', { name: 'extra.webp' })).toHaveAttribute('src', '/uploads/sample/extra.webp');
  });
});

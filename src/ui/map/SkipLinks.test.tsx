/**
 * The map page's skip links (SkipLinks.tsx) on the whole page (engine mocked, the marker
 * worker's store in-process, the API answered by msw): the first Tab stops, each moving the
 * focus to its region, the panels shown first where they were hidden.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { resetLookups } from '../../state/items';
import { layout, setPanelsShown } from '../../state/layout';
import { resetQuests } from '../../state/quests';
import { resetSession, setSessionUser } from '../../state/session';
import { resetSettings } from '../../state/settings';
import { createLocalMarkerSource } from './testing/localMarkerSource';
import { useMapPage } from './testing/mapPageTest';
import { engineWithMarkers } from './testing/readyMap';
import { renderRoute } from './testing/renderRoute';
import { focusSkipTarget } from './SkipLinks';

vi.mock('../../engine/index', () => import('./testing/engineModuleMock'));
vi.mock('./markerSource', async (original) => ({
  ...(await original<typeof import('./markerSource')>()),
  createMarkerSource: () => createLocalMarkerSource(),
}));

const markerList = [{ uid: 'm-safe', map: 'factory', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 500, y: 400 }, name: 'Safe' }];
const questQ1 = { uid: 'q1', name: 'Debut', ruName: 'Дебют', trader: 'Prapor', requiredForKappa: true, requiredForLightkeeper: false, wikiUrl: '' };
useMapPage({ markers: markerList, quests: [questQ1] });

beforeEach(() => {
  resetQuests();
  resetLookups();
  setPanelsShown(true);
});
afterEach(async () => {
  resetSession();
  resetSettings();
  setPanelsShown(true);
  await setLanguage('en');
  vi.restoreAllMocks();
});

/** The map page with its markers loaded (Find a marker's field is enabled then). */
async function readyMap(field = 'Find a marker') {
  renderRoute('/map/factory');
  const engine = await engineWithMarkers();
  act(() => engine.emit('ready', undefined));
  await waitFor(() => expect(screen.getByRole('combobox', { name: field })).toBeEnabled());
}

describe('skip links', () => {
  it('are the first Tab stops of the map page, then the map, then the top bar', async () => {
    const user = userEvent.setup();
    await readyMap();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Skip to map search' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Skip to quests' })).toHaveFocus();
    await user.tab();
    // The map itself (its keys: ui/map/mapKeyboard.ts), then the top bar's All maps link.
    expect(screen.getByRole('application', { name: 'Map of Factory' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('link', { name: /All maps/ })).toHaveFocus();
    // A visitor has no editor tools to skip to.
    expect(screen.queryByRole('link', { name: 'Skip to editor tools' })).toBeNull();
  });

  it('"Skip to map search" puts the focus in Find a marker, from the keyboard', async () => {
    const user = userEvent.setup();
    await readyMap();
    await user.tab();
    await user.keyboard('{Enter}');
    const field = screen.getByRole('combobox', { name: 'Find a marker' });
    await waitFor(() => expect(field).toHaveFocus());
    // The field sits in a search landmark.
    expect(screen.getByRole('search', { name: 'Find a marker' })).toContainElement(field);
    // The address keeps its hash-free form (#pos= is the page's own).
    expect(window.location.hash).toBe('');
  });

  it('"Skip to quests" puts the focus on the quest list, the next Tab on its first control', async () => {
    const user = userEvent.setup();
    await readyMap();
    const link = screen.getByRole('link', { name: 'Skip to quests' });
    act(() => link.focus());
    await user.keyboard('{Enter}');
    const heading = screen.getByRole('heading', { name: 'Quests' });
    await waitFor(() => expect(heading).toHaveFocus());
    const list = screen.getByRole('region', { name: 'Quests' });
    await user.tab();
    expect(list).toContainElement(document.activeElement as HTMLElement);
  });

  it('shows hidden panels first, then focuses the target', async () => {
    const user = userEvent.setup();
    await readyMap();
    act(() => setPanelsShown(false));
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Find a marker' })).toBeNull());
    await user.click(screen.getByRole('link', { name: 'Skip to map search' }));
    expect(layout.panelsShown).toBe(true);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Find a marker' })).toHaveFocus());
  });

  it('are translated', async () => {
    await setLanguage('ru');
    await readyMap('Найти метку');
    const links = within(document.querySelector('.skip-links') as HTMLElement).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Перейти к поиску меток', 'Перейти к квестам']);
  });

  it('lead an admin to the editor tools as well', async () => {
    const user = userEvent.setup();
    setSessionUser({ name: 'admin', pro: false, admin: true, questsDone: [], questsHidden: [] });
    await readyMap();
    const link = screen.getByRole('link', { name: 'Skip to editor tools' });
    act(() => link.focus());
    await user.keyboard('{Enter}');
    // The tools are a lazily loaded chunk: its first import can take seconds on a loaded machine.
    await waitFor(() => expect(screen.getByRole('region', { name: 'Editor tools' })).toHaveFocus(), { timeout: 8000 });
  });
});

describe('focusSkipTarget', () => {
  afterEach(() => document.body.replaceChildren());

  it('falls back to the region while its field is disabled (Find a marker before the markers load)', () => {
    document.body.innerHTML = '<div id="region" tabindex="-1"><input id="field" disabled></div>';
    focusSkipTarget(['field', 'region'], false);
    expect(document.activeElement?.id).toBe('region');
  });

  it('waits for a target drawn later', async () => {
    focusSkipTarget(['late'], false);
    expect(document.activeElement).toBe(document.body);
    const late = document.createElement('button');
    late.id = 'late';
    setTimeout(() => document.body.append(late), 60);
    await waitFor(() => expect(late).toHaveFocus());
  });
});

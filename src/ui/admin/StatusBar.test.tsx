import '../../i18n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MAPS } from '../../domain/maps';
import { gameToMap, mapToGame } from '../../domain/transform';
import { i18n } from '../../i18n';
import { addShape, loadShapes, resetEditor, selectShape, setCursor, setPath } from '../../state/editor';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { resetSession, setSessionUser } from '../../state/session';
import { formatCoord, selectedText, stateLabel, StatusBar } from './StatusBar';
import { resetPopup, setShownMarker } from '../../state/popup';
import { marker } from '../../editor/testing/fakes';

const admin = { pro: false, admin: true, questsDone: [], questsHidden: [] };
const customs = MAPS.customs;

afterEach(async () => {
  resetSession();
  resetEditor();
  setStorageBackend(null);
  await i18n.changeLanguage('en');
});

const bar = () => screen.getByRole('region', { name: 'Editor status' });
const field = (name: string) => bar().querySelector(`[data-field="${name}"] .admin-status__value`)?.textContent;

describe('formatCoord', () => {
  it('rounds to 4 decimals and always shows 4', () => {
    expect(formatCoord(1234.56789)).toBe('1234.5679');
    expect(formatCoord(2)).toBe('2.0000');
    expect(formatCoord(-0.00001)).toBe('0.0000');
    expect(formatCoord(-12.34565)).toBe('-12.3456');
    expect(formatCoord(Number.NaN)).toBe('–');
  });
});

describe('StatusBar', () => {
  it('renders nothing for a visitor or a pro user', () => {
    const { container, rerender } = render(<StatusBar map={customs} camera={{ x: 1, y: 2, zoom: 1 }} />);
    expect(container).toBeEmptyDOMElement();
    act(() => setSessionUser({ ...admin, admin: false, pro: true }));
    rerender(<StatusBar map={customs} camera={{ x: 1, y: 2, zoom: 1 }} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows dashes before the engine and the pointer have said anything', () => {
    setSessionUser(admin);
    render(<StatusBar map={customs} camera={null} />);
    expect(field('state')).toBe('pan, idle');
    for (const name of ['selected', 'drawing', 'zoom', 'centre', 'map', 'game', 'screen']) expect(field(name)).toBe('–');
  });

  it('shows the state path, the selected and drawn shapes, the camera and the cursor (game through the map transform)', async () => {
    setSessionUser(admin);
    const game = { gameX: 123.45678, gameZ: -98.76543 };
    const at = gameToMap(customs.transform, game);
    render(<StatusBar map={customs} camera={{ x: 2200.123456, y: 1600, zoom: 0.612345 }} />);
    act(() => {
      setPath('draw.rect.drawing');
      selectShape('marker:m-safe');
      setCursor({ mapX: at.mapX, mapY: at.mapY, screenX: 640.4, screenY: 399.6 });
    });
    await waitFor(() => expect(field('state')).toBe('draw, in progress'));
    expect(field('selected')).toBe('Marker');
    expect(field('drawing')).toBe('Rectangle');
    expect(field('zoom')).toBe('0.6123');
    expect(field('centre')).toBe('2200.1235, 1600.0000');
    expect(field('map')).toBe(`${at.mapX.toFixed(4)}, ${at.mapY.toFixed(4)}`);
    expect(field('game')).toBe('123.4568, -98.7654');
    expect(field('screen')).toBe('640, 400');
    // The labels name each value.
    expect(bar()).toHaveTextContent(/state draw, in progress/);
    expect(bar()).toHaveTextContent(/game 123\.4568, -98\.7654/);
  });

  it('goes back to dashes when the pointer leaves the map', async () => {
    setSessionUser(admin);
    render(<StatusBar map={customs} camera={null} />);
    act(() => setCursor({ mapX: 1, mapY: 2, screenX: 3, screenY: 4 }));
    await waitFor(() => expect(field('map')).toBe('1.0000, 2.0000'));
    act(() => setCursor(null));
    await waitFor(() => expect(field('map')).toBe('–'));
    expect(field('game')).toBe('–');
    expect(field('screen')).toBe('–');
  });

  it('keeps the cursor readout when the rest of the bar re-renders, and moves it without a render', async () => {
    setSessionUser(admin);
    // Every commit inside the bar (the valtio snapshot re-rendering it included) counts.
    let renders = 0;
    const camera = { x: 1, y: 2, zoom: 1 };
    const Counted = () => (
      <Profiler id="status" onRender={() => (renders += 1)}>
        <StatusBar map={customs} camera={camera} />
      </Profiler>
    );
    const { rerender } = render(<Counted />);
    act(() => setCursor({ mapX: 5, mapY: 6, screenX: 7, screenY: 8 }));
    await waitFor(() => expect(field('map')).toBe('5.0000, 6.0000'));
    act(() => setPath('move.dragging'));
    await waitFor(() => expect(field('state')).toBe('move, dragging'));
    rerender(<Counted />);
    expect(field('map')).toBe('5.0000, 6.0000');
    expect(field('screen')).toBe('7, 8');
    const before = renders;
    for (let i = 0; i < 20; i++) act(() => setCursor({ mapX: 10 + i, mapY: 6, screenX: 7, screenY: 8 }));
    await waitFor(() => expect(field('map')).toBe('29.0000, 6.0000'));
    expect(renders).toBe(before);
  });

  it('uses the given map\'s transform (rotated maps too)', async () => {
    setSessionUser(admin);
    const map = MAPS.factory;
    render(<StatusBar map={map} camera={null} />);
    act(() => setCursor({ mapX: 1000, mapY: 2000, screenX: 1, screenY: 2 }));
    const expected = mapToGame(map.transform, { mapX: 1000, mapY: 2000 });
    await waitFor(() => expect(field('game')).toBe(`${formatCoord(expected.gameX)}, ${formatCoord(expected.gameZ)}`));
    expect(field('map')).toBe('1000.0000, 2000.0000');
  });

  it('takes no pointer events from the map', () => {
    setSessionUser(admin);
    render(<StatusBar map={customs} camera={null} />);
    expect(bar()).toHaveClass('admin-status');
    // jsdom applies no stylesheet: read the rule from admin.css.
    const css = readFileSync(join(__dirname, 'admin.css'), 'utf8');
    const rule = /\n\.admin-status \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(rule).toMatch(/pointer-events: none/);
    expect(rule).toMatch(/font-family: ui-monospace/);
  });

  it('names the selected shape by its type and label, never its internal id (EN and RU)', async () => {
    setSessionUser(admin);
    setStorageBackend(memoryStorage());
    loadShapes('customs');
    addShape({ id: 'shape-e320d29c-b1', type: 'rect', geometry: { x: 0, y: 0, x1: 50, y1: 50 }, name: 'Stash' });
    addShape({ id: 'shape-line-2', type: 'line', geometry: { x: 0, y: 0, x1: 50, y1: 50 }, name: '' });
    render(<StatusBar map={customs} camera={null} />);
    act(() => selectShape('shape-e320d29c-b1'));
    await waitFor(() => expect(field('selected')).toBe('Rectangle “Stash”'));
    expect(bar()).not.toHaveTextContent(/shape-/);
    act(() => selectShape('shape-line-2'));
    await waitFor(() => expect(field('selected')).toBe('Line'));
    await act(async () => {
      await i18n.changeLanguage('ru');
      selectShape('shape-e320d29c-b1');
    });
    const selected = () => document.querySelector('[data-field="selected"] .admin-status__value')?.textContent;
    await waitFor(() => expect(selected()).toBe('Прямоугольник «Stash»'));
  });
});

describe('StatusBar: the shape being drawn', () => {
  it('is named as the tools panel names its tool, in the page\'s language, never by its id', async () => {
    setSessionUser(admin);
    render(<StatusBar map={customs} camera={null} />);
    act(() => setPath('draw.poly.drawing'));
    await waitFor(() => expect(field('drawing')).toBe('Polygon'));
    await act(async () => {
      await i18n.changeLanguage('ru');
      setPath('draw.rect.drawing');
    });
    const drawing = () => document.querySelector('[data-field="drawing"] .admin-status__value')?.textContent;
    await waitFor(() => expect(drawing()).toBe('Прямоугольник'));
    act(() => setPath('draw.rect.idle'));
    await waitFor(() => expect(drawing()).toBe('–'));
  });
});

describe('selectedText', () => {
  const t = ((key: string) => ({ 'admin.tools.rect': 'Rectangle', 'admin.tools.text': 'Text', 'admin.tools.marker': 'Marker' })[key] ?? key) as never;
  it('answers null for nothing selected or an unknown id, the type for an unnamed shape', () => {
    expect(selectedText(t, 'en', null, [])).toBeNull();
    expect(selectedText(t, 'en', 'shape-x', [])).toBeNull();
    expect(selectedText(t, 'en', 'a', [{ id: 'a', type: 'rect', name: '  ' }])).toBe('Rectangle');
    expect(selectedText(t, 'en', 'a', [{ id: 'a', type: 'text', name: 'Exit' }])).toBe('Text “Exit”');
    expect(selectedText(t, 'en', 'marker:m-1', [])).toBe('Marker');
  });

  it('names the marker the popup shows by its name in the page\'s language, in view mode too (no edit form open)', () => {
    try {
      setShownMarker({ ...marker('m-1'), name: 'Stash', name_l10n: { en: 'Selected stash', ru: 'Выбранный тайник' } });
      expect(selectedText(t, 'en', 'marker:m-1', [])).toBe('Selected stash');
      expect(selectedText(t, 'ru', 'marker:m-1', [])).toBe('Выбранный тайник');
      // Another marker's: its type.
      expect(selectedText(t, 'en', 'marker:m-2', [])).toBe('Marker');
    } finally {
      resetPopup();
    }
  });
});

describe('StatusBar: the state for a screen reader', () => {
  it('reads the state in words in the page\'s language (the short label on screen hidden from it); the bar is not live', async () => {
    setSessionUser(admin);
    render(<StatusBar map={customs} camera={null} />);
    act(() => setPath('draw.marker.idle'));
    const region = bar();
    const state = () => region.querySelector('[data-field="state"]')!;
    await waitFor(() => expect(field('state')).toBe('place, idle'));
    expect(state().querySelector('.admin-status__value')).toHaveAttribute('aria-hidden', 'true');
    expect(state().querySelector('.visually-hidden')).toHaveTextContent('Drawing: Marker');
    act(() => setPath('move.dragging'));
    await waitFor(() => expect(state().querySelector('.visually-hidden')).toHaveTextContent('Move mode, dragging'));
    await act(async () => void (await i18n.changeLanguage('ru')));
    act(() => setPath('draw.rect.drawing'));
    await waitFor(() => expect(state().querySelector('.visually-hidden')).toHaveTextContent('Рисование: Прямоугольник, идёт рисование'));
    expect(state().querySelector('.admin-status__value')).toHaveTextContent('рисование, в процессе');
    expect(region).not.toHaveAttribute('aria-live');
    expect(region.querySelector('[aria-live], [role="status"]')).toBeNull();
  });
});

describe('StatusBar: the state as a label, not the engine\'s name', () => {
  const PATHS = ['pan.idle', 'pan.pointing', 'pan.dragging', 'draw.rect.idle', 'draw.pen.drawing', 'draw.marker.idle', 'draw.text.idle', 'edit.idle', 'edit.pointing', 'edit.dragging_handle', 'edit.panning', 'move.idle', 'move.pointing', 'move.dragging', 'move.panning'];

  it('names every state of docs/AUTOMATION.md in both languages, short enough for its 21-character box', async () => {
    for (const lang of ['en', 'ru']) {
      await i18n.changeLanguage(lang);
      const labels = PATHS.map((path) => stateLabel(i18n.t, path));
      for (const [i, label] of labels.entries()) {
        expect(label, PATHS[i]).not.toMatch(/[._]/);
        expect(label.length, label).toBeLessThanOrEqual(21);
        if (lang === 'ru') expect(label, label).toMatch(/^[а-яё ,]+$/);
      }
    }
    expect(stateLabel(i18n.t, 'pan.idle')).toBe('просмотр, ожидание');
    expect(stateLabel(i18n.t, 'edit.dragging_handle')).toBe('правка, перенос точки');
    expect(stateLabel(i18n.t, 'draw.poly.drawing')).toBe('рисование, в процессе');
    // Another tool's path, not known here: shown as it is rather than hidden.
    expect(stateLabel(i18n.t, 'lasso.idle')).toBe('lasso.idle');
  });

  it('shows the label in the page\'s language and follows a switch; the path stays on the value as data-state, the words in its tooltip', async () => {
    setSessionUser(admin);
    render(<StatusBar map={customs} camera={null} />);
    act(() => setPath('edit.dragging_handle'));
    const region = bar();
    const value = () => region.querySelector('[data-field="state"] .admin-status__value')!;
    await waitFor(() => expect(value().textContent).toBe('edit, moving a point'));
    expect(value()).toHaveAttribute('data-state', 'edit.dragging_handle');
    expect(value()).toHaveAttribute('title', 'Edit mode, dragging a point');
    await act(async () => void (await i18n.changeLanguage('ru')));
    await waitFor(() => expect(value().textContent).toBe('правка, перенос точки'));
    expect(value()).toHaveAttribute('title', 'Режим правки, перетаскивание точки');
    expect(value()).toHaveAttribute('data-state', 'edit.dragging_handle');
    expect(region).not.toHaveTextContent('edit.dragging_handle');
    expect(region.innerHTML).not.toMatch(/title="[^"]*\.(idle|dragging)/);
  });
});

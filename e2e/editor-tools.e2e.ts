/**
 * The admin editor's tools in Chromium with real mouse and keyboard input, on a server of this
 * file's own (demo accounts; docs/EDITOR.md, docs/AUTOMATION.md): the state path of every tool
 * button and key (m, l, Escape, the Edit toggle) and the status bar showing it; each shape type
 * drawn by mouse (rect, line, arrow, circle, pen, poly point by point, text), the under-10-px
 * discard, the shapes kept across a reload; the edit handles (move a point, insert one at a
 * midpoint, remove one with a double-click); the status bar's cursor in map, game and screen
 * coordinates; the point history (Alt-click on the top bar, Rec PointsHistory, Toggle coords,
 * the SVG download, Clear points after 'Clear points?'); and the tools on a 390×844 touch screen.
 * Also: two tabs of one map (one local storage) merging their shapes, a deletion in one not
 * coming back from the other; Ctrl+Z mid-drag cancelling the drag only; a placed text whose label
 * is deleted removed with no undo step; Rec showing the points (drawn, Toggle points hides them);
 * the status bar naming the selected shape (Rectangle “Stash”, Line, Прямоугольник «Stash»); and
 * the point history as one sideways-scrolling row on a phone. Also: a long text label grabbed
 * 60 px off its centre (edit selects it, move drags it, not the map); a new text named «Текст» on
 * a Russian page; a poly double-click on empty map keeping its own point; a phone's tap kept in
 * the status bar's map, game and screen fields; the open marker as the selection (`marker:uid`);
 * the phone's dock at most a third of the screen with one row of tools (EN, RU); an admin's
 * Alt-click on Hide panels toggling the point tools only; the status bar's state in words of the
 * page's language (pan, idle; «просмотр, ожидание» after RU), its path kept on `data-state`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MAPS } from '../src/domain/maps';
import { pointsToSvg } from '../src/domain/points';
import { shapesStorageKey } from '../src/domain/shapes';
import { mapToGame, round4 } from '../src/domain/transform';
import { decodeRgba, type Rgba } from './support/image';
import { trackErrors } from './support/page-errors';
import {
  PHONE, addMarker, drag, freeSpots, map, openMap, russianToolsOnPhone, serverMarkers, signIn, statusBar, statusValue, toPan, toolButton, toolsPanel,
  until, useEditorBrowser, useEditorServer, waitForMarker, waitPopupOpen, type Spot,
} from './support/editor';

const server = useEditorServer('editor-tools');
const browser = useEditorBrowser();
const customs = MAPS.customs;

/** The draw tools: state-path name and button label (admin.json). */
const TOOLS = [
  ['pen', 'Pen'],
  ['line', 'Line'],
  ['arrow', 'Arrow'],
  ['rect', 'Rectangle'],
  ['circle', 'Circle'],
  ['poly', 'Polygon'],
  ['text', 'Text'],
  ['marker', 'Marker'],
] as const;
const LABEL = Object.fromEntries(TOOLS) as Record<(typeof TOOLS)[number][0], string>;

/** A coordinate as the status bar shows it (4 decimals, always 4 digits). */
const fmt = (n: number) => round4(n).toFixed(4);

async function adminPage(options: { keep?: boolean; width?: number; height?: number; hasTouch?: boolean } = {}): Promise<Page> {
  const { page } = await browser.newPage(options);
  await signIn(page, server.baseUrl(), 'admin');
  await openMap(page, server.baseUrl());
  await toolsPanel(page).waitFor();
  return page;
}

async function expectPath(page: Page, path: string): Promise<void> {
  await expect.poll(() => map(page).toolPath()).toBe(path);
  await expect.poll(() => statusValue(page, 'state')).toBe(path);
}

const pressed = (page: Page, label: string) => toolButton(page, label).getAttribute('aria-pressed');

describe('states and keys', () => {
  let page: Page;
  beforeAll(async () => {
    page = await adminPage({ keep: true });
  });
  afterAll(() => browser.closeKept());

  test('each tool button goes to draw.<tool>.idle (pressed, in the status bar); pressed again back to pan', async () => {
    await expectPath(page, 'pan.idle');
    for (const [tool, label] of TOOLS) {
      await toolButton(page, label).click();
      await expectPath(page, `draw.${tool}.idle`);
      expect(await pressed(page, label)).toBe('true');
      expect((await map(page).editor()).state).toBe('draw');
      await toolButton(page, label).click();
      await expectPath(page, 'pan.idle');
      expect(await pressed(page, label)).toBe('false');
    }
    // From one tool straight to another.
    await toolButton(page, LABEL.rect).click();
    await expectPath(page, 'draw.rect.idle');
    await toolButton(page, LABEL.circle).click();
    await expectPath(page, 'draw.circle.idle');
    expect(await pressed(page, LABEL.rect)).toBe('false');
    await toPan(page);
  });

  test('m toggles move, l takes the marker tool, Escape goes back to pan, Edit toggles pan ⇄ edit', async () => {
    await page.keyboard.press('m');
    await expectPath(page, 'move.idle');
    expect(await pressed(page, 'Move')).toBe('true');
    await page.keyboard.press('m');
    await expectPath(page, 'pan.idle');
    expect(await pressed(page, 'Move')).toBe('false');

    await page.keyboard.press('l');
    await expectPath(page, 'draw.marker.idle');
    expect(await pressed(page, LABEL.marker)).toBe('true');
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');

    // m from a draw tool goes to move; Escape from move back to pan.
    await toolButton(page, LABEL.line).click();
    await expectPath(page, 'draw.line.idle');
    await page.keyboard.press('m');
    await expectPath(page, 'move.idle');
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');

    await toolButton(page, 'Edit').click();
    await expectPath(page, 'edit.idle');
    expect(await pressed(page, 'Edit')).toBe('true');
    await toolButton(page, 'Edit').click();
    await expectPath(page, 'pan.idle');
    // From a draw tool the Edit toggle goes to edit and drops the tool.
    await toolButton(page, LABEL.arrow).click();
    await expectPath(page, 'draw.arrow.idle');
    await toolButton(page, 'Edit').click();
    await expectPath(page, 'edit.idle');
    expect(await pressed(page, LABEL.arrow)).toBe('false');
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
  });

  test('the keys work while a checkbox or radio has focus, not while typing; "Open new markers in edit mode" opens a placed marker in the form', async () => {
    // A level radio just clicked keeps the focus: m still toggles move.
    await page.getByRole('radio', { name: 'Main' }).click();
    await page.keyboard.press('m');
    await expectPath(page, 'move.idle');
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');

    const option = toolsPanel(page).getByRole('checkbox', { name: 'Open new markers in edit mode' });
    await option.check();
    await page.keyboard.press('l');
    await expectPath(page, 'draw.marker.idle');
    const before = new Set((await serverMarkers(server.baseUrl())).map((m) => m.uid));
    const [spot] = await freeSpots(page, 1);
    await page.mouse.click(spot.x, spot.y);
    const [placed] = await until(
      async () => (await serverMarkers(server.baseUrl())).filter((m) => !before.has(m.uid)),
      (list) => list.length === 1,
      'the placed marker on the server',
    );
    await expect.poll(() => map(page).popup()).toBe(placed.uid);
    const name = page.getByRole('form', { name: 'Edit marker' }).getByLabel('Name when no translation', { exact: true });
    await name.waitFor();
    // Typed into a text box, m and l are letters, not keys of the map.
    await name.fill('');
    await name.press('m');
    await name.press('l');
    expect(await name.inputValue()).toBe('ml');
    expect(await map(page).toolPath()).toBe('draw.marker.idle');
    await page.getByRole('form', { name: 'Edit marker' }).getByRole('button', { name: 'Cancel', exact: true }).click();

    await option.uncheck();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('map:editor'))) ?? '{}')).toMatchObject({ editOnOpen: false });
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
    await expect.poll(() => map(page).popup()).toBeNull();
  });

  test('Escape closes the marker popup and leaves move for pan', async () => {
    const [spot] = await freeSpots(page, 1);
    const at = await map(page).toMap(spot.x, spot.y);
    const marker = await addMarker(page, server.baseUrl(), { geometry: { x: round4(at.x), y: round4(at.y) }, name: 'Escape target' });
    await waitForMarker(page, marker.uid);

    await page.keyboard.press('m');
    await expectPath(page, 'move.idle');
    // A click (no drag) on a marker in move mode opens it.
    const p = await map(page).toScreen(marker.geometry.x, marker.geometry.y);
    await page.mouse.click(p.x, p.y);
    await waitPopupOpen(page, marker.uid);
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).popup()).toBeNull();
    await expectPath(page, 'pan.idle');

    // In pan mode too.
    await page.mouse.click(p.x, p.y);
    await waitPopupOpen(page, marker.uid);
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).popup()).toBeNull();
    await expectPath(page, 'pan.idle');
  });
  test('the marker-type picker: Enter on its button opens it, Escape closes it only (the tool stays), the next Escape goes to pan', async () => {
    await page.keyboard.press('l');
    await expectPath(page, 'draw.marker.idle');
    const button = toolsPanel(page).getByRole('button', { name: /^Marker type:/ });
    await button.focus();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    const picker = toolsPanel(page).getByRole('group', { name: 'Marker type', exact: true });
    await picker.waitFor();

    // Escape closes the picker, gives the focus back to its button, and is not the map's Escape.
    await page.keyboard.press('Escape');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    await picker.waitFor({ state: 'detached' });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    // The map's Escape (synchronous, on the page's keydown) would have gone to pan already.
    expect(await map(page).toolPath()).toBe('draw.marker.idle');
    expect(await statusValue(page, 'state')).toBe('draw.marker.idle');
    expect(await pressed(page, LABEL.marker)).toBe('true');

    // With the picker closed, Escape is the map's again.
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
  });
});

describe('a text shape placed while another shape is selected', () => {
  test('the new text is selected, its Label field takes the typing (e, l, m fire nothing), Enter saves it; undo and redo step through label and placement', async () => {
    const page = await adminPage();
    const shapes = () => map(page).shapes();
    const selected = async () => (await map(page).editor()).selectedShape;

    // A rectangle whose top edge runs through a spot free of markers (an edit-mode click on a marker would select it).
    const [edge] = await freeSpots(page, 1, { box: { left: 360, top: 150, right: 700, bottom: 300 }, clearance: 60 });
    await toolButton(page, LABEL.rect).click();
    await expectPath(page, 'draw.rect.idle');
    await drag(page, { x: edge.x - 70, y: edge.y }, { x: edge.x + 70, y: edge.y + 110 }, 8);
    await expect.poll(async () => (await shapes()).length).toBe(1);
    const rect = (await shapes())[0];
    expect(rect.type).toBe('rect');

    // e: the edit toggle; a click on the rectangle's edge selects it.
    await page.keyboard.press('e');
    await expectPath(page, 'edit.idle');
    await page.mouse.click(edge.x, edge.y);
    await expect.poll(selected).toBe(rect.id);

    // The Text tool, a click on a free spot away from the rectangle.
    await toolButton(page, LABEL.text).click();
    await expectPath(page, 'draw.text.idle');
    const [spot] = await freeSpots(page, 1, { box: { left: 360, top: 380, right: 900, bottom: 560 }, clearance: 50 });
    await page.mouse.click(spot.x, spot.y);
    await expect.poll(async () => (await shapes()).length).toBe(2);
    const text = (await shapes()).at(-1)!;
    expect(text).toMatchObject({ type: 'text', name: 'Text' });
    expect(text.id).not.toBe(rect.id);
    await expect.poll(selected).toBe(text.id);

    // The panel's Label field (a text shape's is named "Text") has the keyboard, "Text" selected.
    const field = toolsPanel(page).getByRole('group', { name: 'Selected shape' }).getByRole('textbox', { name: 'Text', exact: true });
    await expect
      .poll(() => field.evaluate((el: HTMLInputElement) => ({ focused: el === document.activeElement, value: el.value, from: el.selectionStart, to: el.selectionEnd })))
      .toEqual({ focused: true, value: 'Text', from: 0, to: 4 });

    // Typed over: e, l and m are letters here, no map shortcut (edit, marker tool, move).
    await page.keyboard.type('Exfil here elm');
    expect(await field.inputValue()).toBe('Exfil here elm');
    expect(await map(page).toolPath()).toBe('draw.text.idle');
    expect(await statusValue(page, 'state')).toBe('draw.text.idle');
    expect(await selected()).toBe(text.id);

    await page.keyboard.press('Enter');
    await expect.poll(async () => (await shapes()).find((s) => s.id === text.id)?.name).toBe('Exfil here elm');
    // The rectangle is untouched (neither renamed nor moved); the tool stays.
    const after = await shapes();
    expect(after).toHaveLength(2);
    expect(after.find((s) => s.id === rect.id)).toEqual(rect);
    expect(await map(page).toolPath()).toBe('draw.text.idle');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(false);

    // Undo: the label, then the placement; redo brings both back.
    const textNow = async () => (await shapes()).find((s) => s.id === text.id) ?? null;
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await textNow())?.name).toBe('Text');
    await page.keyboard.press('Control+z');
    await expect.poll(textNow).toBeNull();
    expect(await shapes()).toEqual([rect]);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await textNow())?.name).toBe('Text');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await textNow())?.name).toBe('Exfil here elm');
    expect((await shapes()).find((s) => s.id === rect.id)).toEqual(rect);
    expect((await textNow())!.geometry).toEqual(text.geometry);
  });
});

describe('drawing and editing shapes', () => {
  let page: Page;
  beforeAll(async () => {
    page = await adminPage({ keep: true });
  });
  afterAll(() => browser.closeKept());

  const shapes = () => map(page).shapes();
  const toMap = async (s: Spot) => map(page).toMap(s.x, s.y);

  test('rect, line, arrow and circle follow the drag; a drag under 10 px is discarded', async () => {
    const cases = [
      { tool: 'rect', from: { x: 420, y: 110 }, to: { x: 300, y: 190 } },
      { tool: 'line', from: { x: 300, y: 230 }, to: { x: 430, y: 300 } },
      { tool: 'arrow', from: { x: 300, y: 340 }, to: { x: 430, y: 410 } },
      { tool: 'circle', from: { x: 560, y: 150 }, to: { x: 620, y: 200 } },
    ] as const;
    for (const { tool, from, to } of cases) {
      await toolButton(page, LABEL[tool]).click();
      await expectPath(page, `draw.${tool}.idle`);
      const before = await shapes();
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(to.x, to.y, { steps: 6 });
      await expectPath(page, `draw.${tool}.drawing`);
      // The tool's name as the tools panel says it, not its id.
      expect(await statusValue(page, 'drawing')).toBe(LABEL[tool]);
      await page.mouse.up();
      await expectPath(page, `draw.${tool}.idle`);
      const after = await shapes();
      expect(after).toHaveLength(before.length + 1);
      const shape = after[after.length - 1];
      expect(shape.type).toBe(tool);
      const a = await toMap(from);
      const b = await toMap(to);
      const g = shape.geometry;
      if (tool === 'rect') {
        // Normalised: x, y the top-left corner.
        expect(g.x).toBeCloseTo(Math.min(a.x, b.x), 3);
        expect(g.y).toBeCloseTo(Math.min(a.y, b.y), 3);
        expect(g.x1).toBeCloseTo(Math.max(a.x, b.x), 3);
        expect(g.y1).toBeCloseTo(Math.max(a.y, b.y), 3);
      } else {
        expect(g.x).toBeCloseTo(a.x, 3);
        expect(g.y).toBeCloseTo(a.y, 3);
        expect(g.x1).toBeCloseTo(b.x, 3);
        expect(g.y1).toBeCloseTo(b.y, 3);
      }
      if (tool === 'circle') expect(g.width).toBeCloseTo(Math.hypot(b.x - a.x, b.y - a.y), 3);

      // 6 × 6 px: too small on both axes, dropped on release.
      await drag(page, { x: 700, y: 110 }, { x: 706, y: 116 }, 3);
      await expectPath(page, `draw.${tool}.idle`);
      expect(await shapes()).toHaveLength(after.length);
    }
    await toPan(page);
  });

  test('pen follows the stroke; poly takes a point per click and stays open; text is placed by a click', async () => {
    await toolButton(page, LABEL.pen).click();
    const stroke = [{ x: 520, y: 260 }, { x: 560, y: 280 }, { x: 600, y: 250 }, { x: 640, y: 290 }, { x: 680, y: 260 }];
    let before = await shapes();
    await page.mouse.move(stroke[0].x, stroke[0].y);
    await page.mouse.down();
    for (const p of stroke.slice(1)) await page.mouse.move(p.x, p.y, { steps: 3 });
    await expectPath(page, 'draw.pen.drawing');
    await page.mouse.up();
    await expectPath(page, 'draw.pen.idle');
    const after = await shapes();
    expect(after).toHaveLength(before.length + 1);
    const pen = after[after.length - 1];
    expect(pen.type).toBe('pen');
    expect(pen.geometry.points!.length).toBeGreaterThanOrEqual(stroke.length);
    const penStart = await toMap(stroke[0]);
    const penEnd = await toMap(stroke[stroke.length - 1]);
    expect(pen.geometry.points![0][0]).toBeCloseTo(penStart.x, 3);
    expect(pen.geometry.points![0][1]).toBeCloseTo(penStart.y, 3);
    expect(pen.geometry.points!.at(-1)![0]).toBeCloseTo(penEnd.x, 3);
    expect(pen.geometry.points!.at(-1)![1]).toBeCloseTo(penEnd.y, 3);

    await toolButton(page, LABEL.poly).click();
    await expectPath(page, 'draw.poly.idle');
    before = await shapes();
    const corners = [{ x: 720, y: 120 }, { x: 860, y: 130 }, { x: 900, y: 240 }];
    for (const [i, c] of corners.entries()) {
      await page.mouse.click(c.x, c.y);
      await expectPath(page, 'draw.poly.drawing');
      const polys = (await shapes()).slice(before.length);
      // The first point is a preview; the shape exists from its second point on.
      if (i === 0) {
        expect(polys).toHaveLength(0);
        continue;
      }
      expect(polys).toHaveLength(1);
      expect(polys[0].type).toBe('poly');
      expect(polys[0].geometry.points).toHaveLength(i + 1);
      const want = await toMap(c);
      expect(polys[0].geometry.points![i][0]).toBeCloseTo(want.x, 3);
      expect(polys[0].geometry.points![i][1]).toBeCloseTo(want.y, 3);
    }
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
    // Open: never closed by a repeated first point.
    const poly = (await shapes()).slice(before.length)[0];
    expect(poly.geometry.points).toHaveLength(3);

    await toolButton(page, LABEL.text).click();
    before = await shapes();
    await page.mouse.click(760, 330);
    await expect.poll(async () => (await shapes()).length).toBe(before.length + 1);
    const text = (await shapes()).at(-1)!;
    const textAt = await toMap({ x: 760, y: 330 });
    expect(text).toMatchObject({ type: 'text', name: 'Text' });
    expect(text.geometry.x).toBeCloseTo(textAt.x, 3);
    expect(text.geometry.y).toBeCloseTo(textAt.y, 3);
    await toPan(page);
  });

  test('the shapes survive a reload (local storage)', async () => {
    const drawn = await shapes();
    expect(drawn.map((s) => s.type).sort()).toEqual(['arrow', 'circle', 'line', 'pen', 'poly', 'rect', 'text']);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__map?.ready === true, undefined, { timeout: 45_000 });
    await expect.poll(shapes).toEqual(drawn);
  });

  test('edit: a handle drag moves a point, a midpoint drag inserts one, a double-click on a point removes it', async () => {
    await toolButton(page, LABEL.poly).click();
    const before = (await shapes()).length;
    const corners = [{ x: 600, y: 440 }, { x: 760, y: 440 }, { x: 880, y: 540 }];
    for (const c of corners) await page.mouse.click(c.x, c.y);
    await expect.poll(async () => (await shapes()).length).toBe(before + 1);
    const id = (await shapes()).at(-1)!.id;
    const pointsOf = async () => (await shapes()).find((s) => s.id === id)!.geometry.points!;
    const start = await pointsOf();
    expect(start).toHaveLength(3);
    // The poly drawn is selected; Escape leaves the tool and drops the selection.
    expect((await map(page).editor()).selectedShape).toBe(id);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBeNull();

    await toolButton(page, 'Edit').click();
    await expectPath(page, 'edit.idle');
    // A click on the shape's line selects it; one on empty map drops the selection.
    const [empty] = await freeSpots(page, 1, { box: { left: 300, top: 480, right: 560, bottom: 600 } });
    await page.mouse.click(640, 440);
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBe(id);
    await page.mouse.click(empty.x, empty.y);
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBeNull();
    await page.mouse.click(640, 440);
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBe(id);
    await expect.poll(() => statusValue(page, 'selected')).toBe('Polygon');

    // The last point, dragged.
    await page.mouse.move(880, 540);
    await page.mouse.down();
    await page.mouse.move(930, 580, { steps: 5 });
    await expectPath(page, 'edit.dragging_handle');
    await page.mouse.up();
    await expectPath(page, 'edit.idle');
    const moved = await pointsOf();
    const movedTo = await toMap({ x: 930, y: 580 });
    expect(moved).toHaveLength(3);
    expect(moved.slice(0, 2)).toEqual(start.slice(0, 2));
    expect(moved[2][0]).toBeCloseTo(movedTo.x, 3);
    expect(moved[2][1]).toBeCloseTo(movedTo.y, 3);

    // The midpoint of the first segment, dragged: a new point after the first.
    await drag(page, { x: 680, y: 440 }, { x: 680, y: 390 }, 5);
    await expectPath(page, 'edit.idle');
    const inserted = await pointsOf();
    const insertedAt = await toMap({ x: 680, y: 390 });
    expect(inserted).toHaveLength(4);
    expect(inserted[0]).toEqual(start[0]);
    expect(inserted[1][0]).toBeCloseTo(insertedAt.x, 3);
    expect(inserted[1][1]).toBeCloseTo(insertedAt.y, 3);
    expect(inserted.slice(2)).toEqual(moved.slice(1));

    // A double-click on that point removes it, and does not zoom.
    const zoom = (await map(page).camera()).zoom;
    await page.mouse.dblclick(680, 390);
    await expect.poll(pointsOf).toEqual(moved);
    expect((await map(page).camera()).zoom).toBe(zoom);
    await toolButton(page, 'Edit').click();
    await expectPath(page, 'pan.idle');
  });

  test('the status bar shows the cursor in map, game and screen coordinates, and the camera', async () => {
    const [spot] = await freeSpots(page, 1, { box: { left: 320, top: 480, right: 560, bottom: 600 } });
    await page.mouse.move(spot.x - 30, spot.y - 30);
    await page.mouse.move(spot.x, spot.y, { steps: 3 });
    const at = await map(page).toMap(spot.x, spot.y);
    const canvas = (await page.locator('canvas').first().boundingBox())!;
    const game = mapToGame(customs.transform, { mapX: at.x, mapY: at.y });
    await expect.poll(() => statusValue(page, 'map')).toBe(`${fmt(at.x)}, ${fmt(at.y)}`);
    expect(await statusValue(page, 'game')).toBe(`${fmt(game.gameX)}, ${fmt(game.gameZ)}`);
    expect(await statusValue(page, 'screen')).toBe(`${Math.round(spot.x - canvas.x)}, ${Math.round(spot.y - canvas.y)}`);
    const cam = await map(page).camera();
    expect(await statusValue(page, 'zoom')).toBe(fmt(cam.zoom));
    expect(await statusValue(page, 'centre')).toBe(`${fmt(cam.x)}, ${fmt(cam.y)}`);

    // A known map point, hovered through toScreen: the game coordinates come from the map's transform.
    const target = { x: 2000, y: 1500 };
    const s = await map(page).toScreen(target.x, target.y);
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement, [s.x, s.y] as const)).toBe(true);
    await page.mouse.move(s.x, s.y, { steps: 3 });
    const hovered = await map(page).toMap(s.x, s.y);
    expect(hovered.x).toBeCloseTo(target.x, 3);
    expect(hovered.y).toBeCloseTo(target.y, 3);
    const targetGame = mapToGame(customs.transform, { mapX: hovered.x, mapY: hovered.y });
    await expect.poll(() => statusValue(page, 'map')).toBe(`${fmt(hovered.x)}, ${fmt(hovered.y)}`);
    expect(await statusValue(page, 'game')).toBe(`${fmt(targetGame.gameX)}, ${fmt(targetGame.gameZ)}`);
  });

  test('point history: Alt-click on the top bar, record map clicks, toggle coords, download the SVG, clear after "Clear points?"', async () => {
    await toPan(page);
    const tools = page.getByRole('region', { name: 'Point history' });
    expect(await tools.count()).toBe(0);
    const title = page.getByRole('banner').getByRole('heading', { name: customs.name });
    await title.click({ modifiers: ['Alt'] });
    await tools.waitFor();
    const button = (name: string) => tools.getByRole('button', { name, exact: true });
    for (const name of ['Rec PointsHistory', 'Toggle points', 'Toggle coords', 'Clear points', 'Download SVG']) {
      expect(await button(name).count()).toBe(1);
    }
    const count = tools.getByRole('status');
    await expect.poll(() => count.textContent()).toBe('0 points');

    await button('Rec PointsHistory').click();
    expect(await button('Rec PointsHistory').getAttribute('aria-pressed')).toBe('true');
    const spots = await freeSpots(page, 3, { box: { left: 300, top: 100, right: 960, bottom: 600 }, clearance: 45 });
    for (const [i, s] of spots.entries()) {
      await page.mouse.click(s.x, s.y);
      await expect.poll(() => count.textContent()).toBe(`${i + 1} point${i === 0 ? '' : 's'}`);
    }
    expect(await map(page).popup()).toBeNull();
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('customspoints'))) ?? '[]') as { x: number; y: number }[];
    expect(stored).toHaveLength(3);
    for (const [i, s] of spots.entries()) {
      const want = await map(page).toMap(s.x, s.y);
      expect(stored[i].x).toBeCloseTo(want.x, 3);
      expect(stored[i].y).toBeCloseTo(want.y, 3);
    }
    await button('Rec PointsHistory').click();
    expect(await button('Rec PointsHistory').getAttribute('aria-pressed')).toBe('false');

    await button('Toggle coords').click();
    expect(await button('Toggle coords').getAttribute('aria-pressed')).toBe('true');
    const [download] = await Promise.all([page.waitForEvent('download'), button('Download SVG').click()]);
    expect(download.suggestedFilename()).toBe('customs-points.svg');
    const svg = readFileSync((await download.path())!, 'utf8');
    expect(svg).toBe(pointsToSvg(stored, { width: customs.size.width, height: customs.size.height, showCoords: true, transform: customs.transform, title: customs.name }));
    expect(svg).toContain('<polyline points=');
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg.match(/<text /g)).toHaveLength(3);

    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await button('Clear points').click();
    await expect.poll(() => asked).toEqual(['Clear points?']);
    expect(await count.textContent()).toBe('3 points');
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await button('Clear points').click();
    await expect.poll(() => count.textContent()).toBe('0 points');
    expect(asked).toEqual(['Clear points?', 'Clear points?']);
    expect(await page.evaluate(() => localStorage.getItem('customspoints'))).toBeNull();

    await title.click({ modifiers: ['Alt'] });
    await tools.waitFor({ state: 'detached' });
  });
});

describe('the map from the keyboard', () => {
  test('with the map focused, Enter places a marker at the cross-hair; with the rectangle, Enter, arrows and Enter draw one', async () => {
    const page = await adminPage();
    const canvas = page.locator('.map-canvas');
    await canvas.focus();
    // The cross-hair in the middle of the map's visible part (between the side panels, under
    // the top bar), shown once a map key is pressed: over the map, not under a panel.
    await page.keyboard.press('ArrowRight');
    const cursor = page.locator('.map-keyboard-cursor');
    await expect.poll(() => cursor.isVisible()).toBe(true);
    const at = (await cursor.boundingBox())!;
    const centre = { x: at.x + at.width / 2, y: at.y + at.height / 2 };
    const free = await page.evaluate(({ x, y }) => {
      const panels = [...document.querySelectorAll('.map-panel')].map((p) => p.getBoundingClientRect()).filter((r) => r.width > 0);
      const left = Math.max(0, ...panels.filter((r) => r.left < x).map((r) => r.right));
      const right = Math.min(window.innerWidth, ...panels.filter((r) => r.left > x).map((r) => r.left));
      return { over: !!document.elementFromPoint(x, y)?.closest('.map-canvas'), left, right };
    }, centre);
    expect(free.over).toBe(true);
    expect(Math.abs(centre.x - (free.left + free.right) / 2)).toBeLessThan(2);

    // The marker tool (key l), then Enter: a marker where the cross-hair is, saved.
    await page.keyboard.press('l');
    await expectPath(page, 'draw.marker.idle');
    const before = new Set((await serverMarkers(server.baseUrl())).map((m) => m.uid));
    const spot = await map(page).toMap(centre.x, centre.y);
    await page.keyboard.press('Enter');
    const added = await until(
      async () => (await serverMarkers(server.baseUrl())).filter((m) => !before.has(m.uid)),
      (list) => list.length === 1,
      'the marker placed from the keyboard on the server',
    );
    // To a tenth of a map pixel: the cross-hair's box is laid out to a fraction of a pixel.
    expect(added[0].geometry.x).toBeCloseTo(spot.x, 1);
    expect(added[0].geometry.y).toBeCloseTo(spot.y, 1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('map-canvas'))).toBe(true);

    // The rectangle: Enter holds, the arrows move the cross-hair (not the map), Enter lets go.
    // The rectangle by its key (4), the map keeping the focus and its cross-hair.
    await page.keyboard.press('Escape');
    await page.keyboard.press('4');
    await expectPath(page, 'draw.rect.idle');
    const camera = await map(page).camera();
    const shapesBefore = (await map(page).shapes()).length;
    await page.keyboard.press('Enter');
    for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowDown');
    await expectPath(page, 'draw.rect.drawing');
    expect(await map(page).camera()).toEqual(camera);
    await page.keyboard.press('Enter');
    await expectPath(page, 'draw.rect.idle');
    const shapes = await map(page).shapes();
    expect(shapes).toHaveLength(shapesBefore + 1);
    const a = await map(page).toMap(centre.x, centre.y);
    const b = await map(page).toMap(centre.x + 60, centre.y + 40);
    const g = shapes[shapes.length - 1].geometry;
    expect(g.x).toBeCloseTo(a.x, 1);
    expect(g.y).toBeCloseTo(a.y, 1);
    expect(g.x1).toBeCloseTo(b.x, 1);
    expect(g.y1).toBeCloseTo(b.y, 1);
    // Let go, the arrows move the map again.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await map(page).camera()).x).toBeLessThan(camera.x);
  });
});

describe('on a 390×844 touch screen', () => {
  test('the tools start folded; tapping a tool and the map places a marker', async () => {
    const page = await adminPage({ width: PHONE.width, height: PHONE.height, hasTouch: true });
    await expect.poll(() => statusValue(page, 'state')).toBe('pan.idle');
    expect(await statusBar(page).isVisible()).toBe(true);
    const show = toolsPanel(page).getByRole('button', { name: 'Show editor tools' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');

    // A phone starts with the side panels hidden: the map is what one sees first (Show panels
    // waits folded under the compact bar's Menu).
    expect(await page.getByRole('banner').getByRole('button', { name: 'Show panels', includeHidden: true }).count()).toBe(1);
    expect(await page.getByRole('complementary', { name: 'Categories' }).count()).toBe(0);
    await show.tap();
    await toolButton(page, LABEL.marker).tap();
    await expectPath(page, 'draw.marker.idle');

    const before = new Set((await serverMarkers(server.baseUrl())).map((m) => m.uid));
    const [spot] = await freeSpots(page, 1, { box: { left: 60, top: 250, right: 330, bottom: 420 } });
    const at = await map(page).toMap(spot.x, spot.y);
    await page.touchscreen.tap(spot.x, spot.y);
    const added = await until(
      async () => (await serverMarkers(server.baseUrl())).filter((m) => !before.has(m.uid)),
      (list) => list.length > 0,
      'the tapped marker on the server',
    );
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ category: 'Markers', subCategory: 'Marker', level: 1 });
    expect(added[0].geometry.x).toBeCloseTo(at.x, 3);
    expect(added[0].geometry.y).toBeCloseTo(at.y, 3);
    await waitForMarker(page, added[0].uid);

    await toolButton(page, LABEL.marker).tap();
    await expectPath(page, 'pan.idle');
  });
});

/** The shapes a page has stored for customs (`map:shapes:customs`; none stored: []). */
async function storedShapes(page: Page): Promise<{ id: string; type: string; name: string }[]> {
  return JSON.parse((await page.evaluate((key) => localStorage.getItem(key), shapesStorageKey('customs'))) ?? '[]');
}
const typesOf = (list: readonly { type: string }[]) => list.map((s) => s.type).sort();

describe('two tabs of the same map (one browser, one local storage)', () => {
  test("each tab's shape reaches the other and stays stored; a shape deleted in one tab does not come back from the other", async () => {
    const first = await adminPage();
    // The second tab: same context (cookies, local storage), its errors checked here.
    const second = await first.context().newPage();
    const secondErrors = trackErrors(second);
    await openMap(second, server.baseUrl());
    await toolsPanel(second).waitFor();

    await first.bringToFront();
    const [r] = await freeSpots(first, 1, { box: { left: 320, top: 120, right: 560, bottom: 260 }, clearance: 60 });
    await toolButton(first, LABEL.rect).click();
    await expectPath(first, 'draw.rect.idle');
    await drag(first, { x: r.x - 50, y: r.y - 40 }, { x: r.x + 50, y: r.y + 40 });
    await expect.poll(async () => typesOf(await map(first).shapes())).toEqual(['rect']);

    await second.bringToFront();
    const [l] = await freeSpots(second, 1, { box: { left: 640, top: 380, right: 900, bottom: 560 }, clearance: 60 });
    await toolButton(second, LABEL.line).click();
    await expectPath(second, 'draw.line.idle');
    await drag(second, { x: l.x - 60, y: l.y }, { x: l.x + 60, y: l.y });
    for (const page of [first, second]) await expect.poll(async () => typesOf(await map(page).shapes())).toEqual(['line', 'rect']);
    expect(typesOf(await storedShapes(first))).toEqual(['line', 'rect']);
    const line = (await map(second).shapes()).find((s) => s.type === 'line')!;

    // The first tab selects the line (Edit, a click on it) and deletes it.
    await first.bringToFront();
    await toolButton(first, 'Edit').click();
    await expectPath(first, 'edit.idle');
    await first.mouse.click(l.x, l.y);
    await expect.poll(async () => (await map(first).editor()).selectedShape).toBe(line.id);
    await toolsPanel(first).getByRole('group', { name: 'Selected shape' }).getByRole('button', { name: 'Delete shape' }).click();
    for (const page of [first, second]) await expect.poll(async () => typesOf(await map(page).shapes())).toEqual(['rect']);
    expect(typesOf(await storedShapes(first))).toEqual(['rect']);

    // The second tab (which drew the line) draws a circle: the line stays deleted, the rectangle stays.
    await second.bringToFront();
    const [c] = await freeSpots(second, 1, { box: { left: 640, top: 120, right: 900, bottom: 300 }, clearance: 60 });
    await toolButton(second, LABEL.circle).click();
    await expectPath(second, 'draw.circle.idle');
    await drag(second, c, { x: c.x + 40, y: c.y + 30 });
    await expect.poll(async () => typesOf(await storedShapes(second))).toEqual(['circle', 'rect']);
    for (const page of [first, second]) await expect.poll(async () => typesOf(await map(page).shapes())).toEqual(['circle', 'rect']);

    // A third tab opened now shows the same.
    const third = await first.context().newPage();
    const thirdErrors = trackErrors(third);
    await openMap(third, server.baseUrl());
    expect(await map(third).shapes()).toEqual(await map(first).shapes());
    expect(typesOf(await map(third).shapes())).toEqual(['circle', 'rect']);
    expect([...secondErrors.list, ...thirdErrors.list]).toEqual([]);
  });
});

describe('undo, labels and the status bar', () => {
  let page: Page;
  beforeAll(async () => {
    page = await adminPage({ keep: true });
  });
  afterAll(() => browser.closeKept());

  const shapes = () => map(page).shapes();
  const selected = async () => (await map(page).editor()).selectedShape;

  test('Ctrl+Z in the middle of a line drag drops that line only: the rectangle drawn before stays, and a later Ctrl+Z undoes it', async () => {
    await toPan(page);
    const before = await shapes();
    const [r] = await freeSpots(page, 1, { box: { left: 320, top: 110, right: 600, bottom: 250 }, clearance: 60 });
    await toolButton(page, LABEL.rect).click();
    await expectPath(page, 'draw.rect.idle');
    await drag(page, { x: r.x - 50, y: r.y - 40 }, { x: r.x + 50, y: r.y + 40 });
    await expect.poll(async () => (await shapes()).length).toBe(before.length + 1);
    const withRect = await shapes();
    expect(withRect.at(-1)!.type).toBe('rect');

    await toolButton(page, LABEL.line).click();
    await expectPath(page, 'draw.line.idle');
    const [l] = await freeSpots(page, 1, { box: { left: 640, top: 380, right: 900, bottom: 560 }, clearance: 60 });
    await page.mouse.move(l.x - 60, l.y);
    await page.mouse.down();
    await page.mouse.move(l.x, l.y, { steps: 5 });
    await expectPath(page, 'draw.line.drawing');
    await page.keyboard.press('Control+z');
    await expectPath(page, 'draw.line.idle');
    await page.mouse.move(l.x + 60, l.y, { steps: 5 });
    await page.mouse.up();
    await expectPath(page, 'draw.line.idle');
    // Nothing added, nothing undone; the rectangle's step is still there.
    expect(await shapes()).toEqual(withRect);
    expect((await storedShapes(page)).map((x) => x.id)).toEqual(withRect.map((x) => x.id));
    expect((await map(page).editor()).canUndo).toBe(true);

    await page.keyboard.press('Control+z');
    await expect.poll(shapes).toEqual(before);
    await toPan(page);
  });

  test('a text placed and its label deleted (Backspace, Enter) is removed: no text shape, nothing stored, no undo step', async () => {
    await toPan(page);
    const before = await shapes();
    const stored = await storedShapes(page);
    const { canUndo, canRedo } = await map(page).editor();
    await toolButton(page, LABEL.text).click();
    await expectPath(page, 'draw.text.idle');
    const [spot] = await freeSpots(page, 1, { box: { left: 360, top: 300, right: 900, bottom: 560 }, clearance: 50 });
    await page.mouse.click(spot.x, spot.y);
    await expect.poll(async () => (await shapes()).length).toBe(before.length + 1);
    const text = (await shapes()).at(-1)!;
    expect(text).toMatchObject({ type: 'text', name: 'Text' });
    const field = toolsPanel(page).getByRole('group', { name: 'Selected shape' }).getByRole('textbox', { name: 'Text', exact: true });
    await expect
      .poll(() => field.evaluate((el: HTMLInputElement) => ({ focused: el === document.activeElement, from: el.selectionStart, to: el.selectionEnd })))
      .toEqual({ focused: true, from: 0, to: 4 });

    await page.keyboard.press('Backspace');
    expect(await field.inputValue()).toBe('');
    await page.keyboard.press('Enter');
    await expect.poll(shapes).toEqual(before);
    expect(await storedShapes(page)).toEqual(stored);
    await expect.poll(selected).toBeNull();
    const after = await map(page).editor();
    expect({ canUndo: after.canUndo, canRedo: after.canRedo }).toEqual({ canUndo, canRedo });
    expect(await map(page).toolPath()).toBe('draw.text.idle');
    await toPan(page);
  });

  test('Rec shows the points recorded (Toggle points pressed, the path drawn); Toggle points hides them', async () => {
    await toPan(page);
    const tools = page.getByRole('region', { name: 'Point history' });
    const title = page.getByRole('banner').getByRole('heading', { name: customs.name });
    await title.click({ modifiers: ['Alt'] });
    await tools.waitFor();
    const button = (name: string) => tools.getByRole('button', { name, exact: true });
    expect(await button('Toggle points').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => tools.getByRole('status').textContent()).toBe('0 points');

    const spots = await freeSpots(page, 3, { box: { left: 360, top: 140, right: 900, bottom: 560 }, clearance: 110 });
    // Where the path between the points runs: a quarter, half and three quarters along each leg.
    const along = spots.slice(1).flatMap((b, i) => [0.25, 0.5, 0.75].map((f) => ({ x: spots[i].x + (b.x - spots[i].x) * f, y: spots[i].y + (b.y - spots[i].y) * f })));
    const pathPixels = () => page.screenshot().then(decodeRgba).then((shot) => strokePixels(shot, along));
    const bare = await pathPixels();

    await button('Rec PointsHistory').click();
    expect(await button('Rec PointsHistory').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => button('Toggle points').getAttribute('aria-pressed')).toBe('true');
    for (const [i, s] of spots.entries()) {
      await page.mouse.click(s.x, s.y);
      await expect.poll(() => tools.getByRole('status').textContent()).toBe(`${i + 1} point${i === 0 ? '' : 's'}`);
    }
    // The path in the shapes' colour crosses each sampled spot.
    await expect.poll(pathPixels).toBeGreaterThanOrEqual(bare + along.length * 4);

    await button('Toggle points').click();
    expect(await button('Toggle points').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(pathPixels).toBeLessThanOrEqual(bare + 2);

    await button('Rec PointsHistory').click();
    expect(await button('Rec PointsHistory').getAttribute('aria-pressed')).toBe('false');
    await title.click({ modifiers: ['Alt'] });
    await tools.waitFor({ state: 'detached' });
  });

  test('the status bar names the selected shape by type and label: Rectangle “Stash”, Line; in Russian Прямоугольник «Stash»', async () => {
    await toPan(page);
    const [r, l] = await freeSpots(page, 2, { box: { left: 360, top: 130, right: 900, bottom: 520 }, clearance: 120 });
    await toolButton(page, LABEL.rect).click();
    await expectPath(page, 'draw.rect.idle');
    // The rectangle's top edge runs through r (free of markers: an edit-mode click there selects the rectangle).
    await drag(page, { x: r.x - 60, y: r.y }, { x: r.x + 60, y: r.y + 70 });
    await expect.poll(async () => (await shapes()).at(-1)?.type).toBe('rect');
    const rect = (await shapes()).at(-1)!;
    await toolButton(page, LABEL.line).click();
    await expectPath(page, 'draw.line.idle');
    await drag(page, { x: l.x - 60, y: l.y }, { x: l.x + 60, y: l.y });
    await expect.poll(async () => (await shapes()).at(-1)?.type).toBe('line');
    const line = (await shapes()).at(-1)!;

    await toolButton(page, 'Edit').click();
    await expectPath(page, 'edit.idle');
    await page.mouse.click(r.x, r.y);
    await expect.poll(selected).toBe(rect.id);
    await expect.poll(() => statusValue(page, 'selected')).toBe('Rectangle');
    const label = toolsPanel(page).getByRole('group', { name: 'Selected shape' }).getByRole('textbox', { name: 'Label', exact: true });
    await label.fill('Stash');
    await label.press('Enter');
    await expect.poll(async () => (await shapes()).find((s) => s.id === rect.id)?.name).toBe('Stash');
    await expect.poll(() => statusValue(page, 'selected')).toBe('Rectangle “Stash”');
    expect(await statusBar(page).textContent()).not.toContain(rect.id);

    await page.mouse.click(l.x, l.y);
    await expect.poll(selected).toBe(line.id);
    await expect.poll(() => statusValue(page, 'selected')).toBe('Line');

    // In Russian, with Russian quotation marks.
    await page.mouse.click(r.x, r.y);
    await expect.poll(selected).toBe(rect.id);
    await page.getByRole('banner').getByRole('button', { name: 'RU Русский', exact: true }).click();
    // (The status bar's region has a Russian name now: its field read by its data attribute.)
    const selectedField = page.locator('[data-field="selected"] .admin-status__value');
    await expect.poll(() => selectedField.textContent({ timeout: 5_000 })).toBe('Прямоугольник «Stash»');
    await page.getByRole('banner').getByRole('button', { name: /^EN / }).click();
    await expect.poll(() => statusValue(page, 'selected')).toBe('Rectangle “Stash”');
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
  });
});

/** Pixels in the drawn shapes' colour (#ff5a36, shape-layer.ts) within 5 px of each of `spots`. */
function strokePixels(shot: Rgba, spots: readonly Spot[]): number {
  let count = 0;
  for (const s of spots) {
    for (let y = Math.round(s.y) - 5; y <= Math.round(s.y) + 5; y += 1) {
      for (let x = Math.round(s.x) - 5; x <= Math.round(s.x) + 5; x += 1) {
        const o = (y * shot.width + x) * 4;
        const [r, g, b] = [shot.data[o], shot.data[o + 1], shot.data[o + 2]];
        if (Math.abs(r - 0xff) < 40 && Math.abs(g - 0x5a) < 45 && Math.abs(b - 0x36) < 45) count += 1;
      }
    }
  }
  return count;
}

describe('the point history on a 390×844 touch screen', () => {
  test('its buttons are one row (at most 60 px tall) that scrolls sideways, not three rows over the map', async () => {
    const page = await adminPage({ width: PHONE.width, height: PHONE.height, hasTouch: true });
    await toolsPanel(page).getByRole('button', { name: 'Show editor tools' }).tap();
    await toolsPanel(page).getByRole('checkbox', { name: 'Point history' }).tap();
    const region = page.getByRole('region', { name: 'Point history' });
    await region.waitFor();
    expect(await region.evaluate((el) => el.classList.contains('admin-points'))).toBe(true);
    const box = await region.evaluate((el) => {
      const boxes = [...el.children].map((c) => c.getBoundingClientRect());
      // One row: every child overlaps every other vertically (the count is centred, not top-aligned).
      const oneRow = Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
      return { height: el.getBoundingClientRect().height, scrolls: el.scrollWidth > el.clientWidth, oneRow };
    });
    expect(box.height).toBeLessThanOrEqual(60);
    // One row: what does not fit scrolls sideways (scrollWidth over clientWidth) instead of wrapping.
    expect(box.oneRow, JSON.stringify(box)).toBe(true);
    // The count is in sight, the buttons reachable by scrolling.
    expect(await region.getByRole('status').isVisible()).toBe(true);
    await region.getByRole('button', { name: 'Download SVG', exact: true }).scrollIntoViewIfNeeded();
    expect(await region.getByRole('button', { name: 'Download SVG', exact: true }).isVisible()).toBe(true);
  });
});

describe('a text shape grabbed on its whole label, named in the page\'s language; the poly tool\'s double-click', () => {
  test('a long label is selected (e) and moved (m) by a press 60 px right of its centre, the camera staying', async () => {
    const page = await adminPage();
    const shapes = () => map(page).shapes();
    // A spot with room on its right: the press 60 px right of it must find no marker.
    const [spot] = await freeSpots(page, 1, { box: { left: 340, top: 200, right: 760, bottom: 520 }, clearance: 120 });
    const grab = { x: spot.x + 60, y: spot.y };
    expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement, grab)).toBe(true);

    await page.keyboard.press('7');
    await expectPath(page, 'draw.text.idle');
    await page.mouse.click(spot.x, spot.y);
    await expect.poll(async () => (await shapes()).length).toBe(1);
    const field = toolsPanel(page).getByRole('group', { name: 'Selected shape' }).getByRole('textbox', { name: 'Text', exact: true });
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    const label = 'A much longer label for the exit';
    await page.keyboard.type(label);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await shapes())[0].name).toBe(label);
    const text = (await shapes())[0];
    expect(text.type).toBe('text');
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBeNull();

    // Edit: a click on the label's right part (far outside a small box at its centre) selects it.
    await page.keyboard.press('e');
    await expectPath(page, 'edit.idle');
    await page.mouse.click(grab.x, grab.y);
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBe(text.id);

    // Move: a drag from the same point takes the text along, not the map.
    await page.keyboard.press('m');
    await expectPath(page, 'move.idle');
    const camera = await map(page).camera();
    await drag(page, grab, { x: grab.x + 40, y: grab.y + 40 });
    await expectPath(page, 'move.idle');
    const moved = await until(
      async () => (await shapes()).find((s) => s.id === text.id)!,
      (s) => s.geometry.x !== text.geometry.x,
      'the text moved',
    );
    expect(moved.geometry.x).toBeCloseTo(text.geometry.x + 40 / camera.zoom, 2);
    expect(moved.geometry.y).toBeCloseTo(text.geometry.y + 40 / camera.zoom, 2);
    expect(moved.name).toBe(label);
    expect(await map(page).camera()).toEqual(camera);
  });

  test('on a Russian page a new text is named «Текст»', async () => {
    const page = await adminPage();
    await page.getByRole('banner').getByRole('button', { name: 'RU Русский', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Инструменты редактора' });
    await panel.waitFor();
    // (The status bar's region has a Russian name now: the path is read from __map.)
    await page.keyboard.press('7');
    await expect.poll(() => map(page).toolPath()).toBe('draw.text.idle');
    const [spot] = await freeSpots(page, 1, { box: { left: 360, top: 200, right: 900, bottom: 520 }, clearance: 50 });
    await page.mouse.click(spot.x, spot.y);
    await expect.poll(async () => (await map(page).shapes()).map((s) => [s.type, s.name])).toEqual([['text', 'Текст']]);
    // Its label field (named «Текст») has it, selected to be typed over.
    const field = panel.getByRole('group', { name: 'Выбранная фигура' }).getByRole('textbox', { name: 'Текст', exact: true });
    await expect
      .poll(() => field.evaluate((el: HTMLInputElement) => ({ focused: el === document.activeElement, value: el.value, from: el.selectionStart, to: el.selectionEnd })))
      .toEqual({ focused: true, value: 'Текст', from: 0, to: 5 });
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).toolPath()).toBe('pan.idle');
    expect((await map(page).shapes())[0].name).toBe('Текст');
  });

  test('poly: a double-click on empty map keeps the point it added (no zoom); a second one there removes it', async () => {
    const page = await adminPage();
    const shapes = () => map(page).shapes();
    const [a, b, c] = await freeSpots(page, 3, { box: { left: 340, top: 160, right: 900, bottom: 560 }, clearance: 90 });
    await page.keyboard.press('6');
    await expectPath(page, 'draw.poly.idle');
    await page.mouse.click(a.x, a.y);
    await page.mouse.click(b.x, b.y);
    await expect.poll(async () => (await shapes()).at(-1)?.geometry.points?.length).toBe(2);
    const zoom = (await map(page).camera()).zoom;

    await page.mouse.dblclick(c.x, c.y);
    await expect.poll(async () => (await shapes()).at(-1)?.geometry.points?.length).toBe(3);
    const points = (await shapes()).at(-1)!.geometry.points!;
    const want = await map(page).toMap(c.x, c.y);
    expect(points[2][0]).toBeCloseTo(want.x, 3);
    expect(points[2][1]).toBeCloseTo(want.y, 3);
    expect((await map(page).camera()).zoom).toBe(zoom);
    // Still drawing: the polygon is not ended by the double-click.
    expect(await map(page).toolPath()).toBe('draw.poly.drawing');

    // The point was there before this double-click: it goes.
    await page.mouse.dblclick(c.x, c.y);
    await expect.poll(async () => (await shapes()).at(-1)?.geometry.points).toEqual(points.slice(0, 2));
    expect((await map(page).camera()).zoom).toBe(zoom);
    expect(await shapes()).toHaveLength(1);
    // Still drawing; the status bar names the tool as the tools panel does.
    expect(await map(page).toolPath()).toBe('draw.poly.drawing');
    expect(await statusValue(page, 'drawing')).toBe(LABEL.poly);
    await page.keyboard.press('Escape');
    await expectPath(page, 'pan.idle');
  });
});

describe('the status bar: a touch press, the open marker', () => {
  test('on a 390×844 touch screen a tap on the map shows its point in map, game and screen coordinates after the finger lifts', async () => {
    const page = await adminPage({ width: PHONE.width, height: PHONE.height, hasTouch: true });
    expect(await statusBar(page).isVisible()).toBe(true);
    for (const field of ['map', 'game', 'screen']) expect(await statusValue(page, field)).toBe('–');
    const [spot] = await freeSpots(page, 1, { box: { left: 60, top: 250, right: 330, bottom: 420 } });
    const at = await map(page).toMap(spot.x, spot.y);
    const game = mapToGame(customs.transform, { mapX: at.x, mapY: at.y });
    const canvas = (await page.locator('canvas').first().boundingBox())!;
    await page.touchscreen.tap(spot.x, spot.y);
    await expect.poll(() => statusValue(page, 'map')).toBe(`${fmt(at.x)}, ${fmt(at.y)}`);
    expect(await statusValue(page, 'game')).toBe(`${fmt(game.gameX)}, ${fmt(game.gameZ)}`);
    expect(await statusValue(page, 'screen')).toBe(`${Math.round(spot.x - canvas.x)}, ${Math.round(spot.y - canvas.y)}`);
    expect(await map(page).toolPath()).toBe('pan.idle');
  });

  test('e, then a click on a marker: the open marker is the selection (marker:uid, shown in the status bar); Escape drops it', async () => {
    const page = await adminPage();
    const [spot] = await freeSpots(page, 1, { box: { left: 360, top: 200, right: 900, bottom: 520 }, clearance: 80 });
    const at = await map(page).toMap(spot.x, spot.y);
    const marker = await addMarker(page, server.baseUrl(), { geometry: { x: round4(at.x), y: round4(at.y) }, name: 'Selected stash' });
    await waitForMarker(page, marker.uid);

    await page.keyboard.press('e');
    await expectPath(page, 'edit.idle');
    const p = await map(page).toScreen(marker.geometry.x, marker.geometry.y);
    await page.mouse.click(p.x, p.y);
    await waitPopupOpen(page, marker.uid);
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBe(`marker:${marker.uid}`);
    // Named by its name, as docs/EDITOR.md says (the popup's marker as read, no edit form open).
    await expect.poll(() => statusValue(page, 'selected')).toBe('Selected stash');

    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).popup()).toBeNull();
    await expect.poll(async () => (await map(page).editor()).selectedShape).toBeNull();
    await expect.poll(() => statusValue(page, 'selected')).toBe('–');
  });
});

describe('the editor dock on a 390×844 touch screen', () => {
  /** The dock's share of the window and the tops of the main tools' buttons. */
  async function dockLayout(page: Page, panel: string, names: readonly string[]) {
    const tools = page.getByRole('region', { name: panel });
    const tops: number[] = [];
    for (const name of names) tops.push((await tools.getByRole('button', { name, exact: true }).boundingBox())!.y);
    const share = await page.evaluate(() => document.querySelector('.admin-dock')!.getBoundingClientRect().height / window.innerHeight);
    return { share, tops };
  }

  test('with the tools shown it takes at most a third of the screen, the tools one row, in English and in Russian', async () => {
    const page = await adminPage({ width: PHONE.width, height: PHONE.height, hasTouch: true });
    await toolsPanel(page).getByRole('button', { name: 'Show editor tools' }).tap();
    await toolButton(page, 'Redo').waitFor();
    const en = ['Rectangle', 'Marker', 'Edit', 'Move', 'Undo', 'Redo'] as const;
    const english = await dockLayout(page, 'Editor tools', en);
    expect(english.share, JSON.stringify(english)).toBeLessThanOrEqual(0.34);
    for (const top of english.tops) expect(Math.abs(top - english.tops[0]), JSON.stringify(english)).toBeLessThanOrEqual(1);

    const panel = await russianToolsOnPhone(page);
    const ru = ['Прямоугольник', 'Метка', 'Правка', 'Перенос', 'Отменить', 'Повторить'] as const;
    await panel.getByRole('button', { name: 'Повторить', exact: true }).waitFor();
    const russian = await dockLayout(page, 'Инструменты редактора', ru);
    expect(russian.share, JSON.stringify(russian)).toBeLessThanOrEqual(0.34);
    for (const top of russian.tops) expect(Math.abs(top - russian.tops[0]), JSON.stringify(russian)).toBeLessThanOrEqual(1);
  });
});

describe("an admin's Alt-click on the top bar's buttons", () => {
  test('Alt-click on Hide panels toggles the point tools only: the panels stay shown', async () => {
    const page = await adminPage();
    const banner = page.getByRole('banner');
    const categories = page.getByRole('complementary', { name: 'Categories' });
    const tools = page.getByRole('region', { name: 'Point history' });
    await categories.waitFor();
    expect(await tools.count()).toBe(0);

    await banner.getByRole('button', { name: 'Hide panels', exact: true }).click({ modifiers: ['Alt'] });
    await tools.waitFor();
    expect(await categories.isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Hide panels', exact: true }).count()).toBe(1);
    expect(await banner.getByRole('button', { name: 'Show panels', exact: true }).count()).toBe(0);

    await banner.getByRole('button', { name: 'Hide panels', exact: true }).click({ modifiers: ['Alt'] });
    await tools.waitFor({ state: 'detached' });
    expect(await categories.isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Show panels', exact: true }).count()).toBe(0);

    // Without Alt it hides the panels as before.
    await banner.getByRole('button', { name: 'Hide panels', exact: true }).click();
    await categories.waitFor({ state: 'detached' });
    expect(await tools.count()).toBe(0);
  });
});

describe('the status bar\'s state in words', () => {
  test('pan, idle in English; after RU «просмотр, ожидание», and a key\'s new state in Russian too; the path stays on data-state', async () => {
    const page = await adminPage();
    // Read by its data attribute: the status bar's region is named in the page's language.
    const state = page.locator('[data-field="state"] .admin-status__value');
    await expect.poll(() => state.textContent()).toBe('pan, idle');
    expect(await state.getAttribute('data-state')).toBe('pan.idle');
    expect(await statusBar(page).textContent()).not.toContain('pan.idle');

    await page.getByRole('banner').getByRole('button', { name: 'RU Русский', exact: true }).click();
    await expect.poll(() => state.textContent()).toBe('просмотр, ожидание');
    expect(await state.getAttribute('data-state')).toBe('pan.idle');

    await page.keyboard.press('m');
    await expect.poll(() => map(page).toolPath()).toBe('move.idle');
    await expect.poll(() => state.textContent()).toBe('перенос, ожидание');
    expect(await state.getAttribute('data-state')).toBe('move.idle');
    await page.keyboard.press('Escape');
    await expect.poll(() => state.getAttribute('data-state')).toBe('pan.idle');
    expect(await state.textContent()).toBe('просмотр, ожидание');
  });
});

/**
 * The admin editor for keyboard and screen-reader users, in Chromium on a server of this file's
 * own (demo accounts; docs/EDITOR.md "Spoken feedback", docs/DECISIONS.md "The admin editor for
 * keyboard and screen-reader users"): the page's polite live region says each change of tool and
 * each action's outcome (marker placed, undone: marker placement), in English and in Russian;
 * Ctrl+Enter saves the edit form ("Saved") and Escape in a field says its changes were set aside;
 * the tools panel's Undo keeps the keyboard when its undo closes the popup (on Redo once Undo is
 * disabled), so the next Enter is a redo, not a click on the map; the open marker-type picker
 * passes axe; and the phone's short check label («Правка новых») is in the checkbox's name.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  PHONE, editForm, map, openMap, popupDialog, russianToolsOnPhone, serverMarker, serverUids, signIn, toolButton, toolsPanel, until, useEditorBrowser,
  useEditorServer,
} from './support/editor';

const server = useEditorServer('editor-a11y');
const browser = useEditorBrowser();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function adminPage(options: { width?: number; height?: number; hasTouch?: boolean } = {}): Promise<Page> {
  const { page } = await browser.newPage(options);
  await signIn(page, server.baseUrl(), 'admin');
  await openMap(page, server.baseUrl());
  await toolsPanel(page).waitFor();
  return page;
}

/** What the page's polite live region says now (ui/LiveAnnouncer.tsx). */
function said(page: Page): Promise<string> {
  return page.locator('.live-announcer[role="status"]').evaluate((el) => el.textContent ?? '');
}

async function expectSaid(page: Page, text: string): Promise<void> {
  await expect.poll(() => said(page), { timeout: 15_000 }).toBe(text);
}

/**
 * The map focused, its cross-hair shown (where Enter clicks). A script's focus after a mouse
 * click is not :focus-visible, so the cross-hair waits for a map key: an arrow (ui/map/mapKeyboard.ts).
 */
async function focusMap(page: Page): Promise<void> {
  await page.locator('.map-canvas').focus();
  await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('map-canvas') ?? false)).toBe(true);
  const cursor = page.locator('.map-keyboard-cursor');
  if (!(await cursor.isVisible())) await page.keyboard.press('ArrowRight');
  await expect.poll(() => cursor.isVisible()).toBe(true);
}

/** The uids the server lists now that `before` had not. */
async function addedSince(before: ReadonlySet<string>): Promise<string[]> {
  return [...(await serverUids(server.baseUrl()))].filter((uid) => !before.has(uid));
}

/** `l`, Enter on the focused map: a marker at the cross-hair; returns it once the server has it. */
async function placeWithKeyboard(page: Page, before: ReadonlySet<string>): Promise<string> {
  await focusMap(page);
  await page.keyboard.press('l');
  await expect.poll(() => map(page).toolPath()).toBe('draw.marker.idle');
  await page.keyboard.press('Enter');
  const added = await until(
    () => addedSince(before),
    (list) => list.length === 1,
    'the marker placed from the keyboard on the server',
  );
  return added[0];
}

function nameField(page: Page): Locator {
  return editForm(page).getByLabel('Name when no translation', { exact: true });
}

/** The WCAG 2.1 A / AA violations axe finds in the page as it is now (as e2e/a11y.e2e.ts). */
async function violations(page: Page) {
  // Evaluated, not added as a script tag: the site's CSP allows no inline script.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

describe('spoken feedback', () => {
  test('the live region says the tool (l, m, Escape) and the outcome (Enter places, Ctrl+Z undoes); in Russian too', async () => {
    const page = await adminPage();
    const before = await serverUids(server.baseUrl());
    await focusMap(page);
    await page.keyboard.press('l');
    await expectSaid(page, 'Marker tool');
    await page.keyboard.press('Enter');
    await expectSaid(page, 'Marker placed');
    const [uid] = await until(() => addedSince(before), (list) => list.length === 1, 'the placed marker on the server');
    await focusMap(page);
    await page.keyboard.press('m');
    await expectSaid(page, 'Move mode');
    await page.keyboard.press('Escape');
    await expect.poll(() => map(page).toolPath()).toBe('pan.idle');
    await expectSaid(page, 'Pan');
    await page.keyboard.press('Control+z');
    await expectSaid(page, 'Undone: marker placement');
    await expect.poll(() => serverMarker(server.baseUrl(), uid)).toBeNull();

    // The page in Russian: the same keys, Russian words.
    await page.getByRole('banner').getByRole('button', { name: 'RU Русский', exact: true }).click();
    await page.getByRole('region', { name: 'Инструменты редактора' }).waitFor();
    const beforeRu = await serverUids(server.baseUrl());
    await focusMap(page);
    await page.keyboard.press('l');
    await expectSaid(page, 'Инструмент «Метка»');
    await page.keyboard.press('Enter');
    await expectSaid(page, 'Метка поставлена');
    await until(
      () => addedSince(beforeRu),
      (list) => list.length === 1,
      'the marker placed on the Russian page on the server',
    );
  });
});

describe('the edit form from the keyboard', () => {
  test('"Edit new" opens a marker placed with the keyboard in its form; Ctrl+Enter saves ("Saved"); Escape in a field says the changes were set aside', async () => {
    const page = await adminPage();
    await toolsPanel(page).getByRole('checkbox', { name: 'Edit new: open new markers in edit mode', exact: true }).check();
    const uid = await placeWithKeyboard(page, await serverUids(server.baseUrl()));
    await expect.poll(() => map(page).popup()).toBe(uid);
    const name = nameField(page);
    await name.waitFor();
    await name.fill('Saved by Ctrl+Enter');
    await name.press('Control+Enter');
    await expect.poll(async () => (await serverMarker(server.baseUrl(), uid))?.name, { timeout: 15_000 }).toBe('Saved by Ctrl+Enter');
    await expectSaid(page, 'Saved');
    await editForm(page).waitFor({ state: 'detached' });

    // Again, and Escape in the field: not saved, and said so.
    await popupDialog(page, uid).getByRole('button', { name: 'Edit', exact: true }).click();
    await name.waitFor();
    await name.fill('Set aside by Escape');
    await name.press('Escape');
    await editForm(page).waitFor({ state: 'detached' });
    await expect.poll(() => said(page)).toMatch(/^Not saved: your changes were set aside/);
    expect((await serverMarker(server.baseUrl(), uid))?.name).toBe('Saved by Ctrl+Enter');
  });
});

describe('the tools panel from the keyboard', () => {
  test("Undo with Enter undoes the edit (the popup stays), then the placement (the popup closes): the focus stays in the panel, on Redo once Undo is disabled, so the next Enter redoes, not a click on the map", async () => {
    const page = await adminPage();
    await toolsPanel(page).getByRole('checkbox', { name: 'Edit new: open new markers in edit mode', exact: true }).check();
    const before = await serverUids(server.baseUrl());
    const uid = await placeWithKeyboard(page, before);
    const original = (await serverMarker(server.baseUrl(), uid))!.name;
    const name = nameField(page);
    await name.waitFor();
    await name.fill('Undo target');
    await editForm(page).getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await serverMarker(server.baseUrl(), uid))?.name, { timeout: 15_000 }).toBe('Undo target');
    await editForm(page).waitFor({ state: 'detached' });
    // The marker tool is still on: an Enter on the map would place another marker.
    expect(await map(page).toolPath()).toBe('draw.marker.idle');

    const undoButton = toolButton(page, 'Undo');
    const redoButton = toolButton(page, 'Redo');
    await undoButton.focus();
    await page.keyboard.press('Enter');
    await expectSaid(page, 'Undone: marker edit');
    await expect.poll(async () => (await serverMarker(server.baseUrl(), uid))?.name, { timeout: 15_000 }).toBe(original);
    expect(await map(page).popup()).toBe(uid);
    expect(await undoButton.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await expectSaid(page, 'Undone: marker placement');
    await expect.poll(() => serverMarker(server.baseUrl(), uid), { timeout: 15_000 }).toBeNull();
    await expect.poll(() => map(page).popup()).toBeNull();
    // Undo has nothing left and is disabled: the keyboard is on Redo, not on the map.
    await expect.poll(() => undoButton.isDisabled()).toBe(true);
    await expect.poll(() => redoButton.evaluate((el) => el === document.activeElement)).toBe(true);

    // The third Enter is Redo's: the same marker back, no new one placed at the cross-hair.
    await page.keyboard.press('Enter');
    await expectSaid(page, 'Redone: marker placement');
    await expect.poll(async () => (await serverMarker(server.baseUrl(), uid)) !== null, { timeout: 15_000 }).toBe(true);
    // (The list may lag a write by 100 ms: waited for, then exactly that one.)
    expect(await until(() => addedSince(before), (list) => list.includes(uid), 'the redone marker in the list')).toEqual([uid]);
    expect(await map(page).markers().then((list) => list.filter((m) => !before.has(m.uid)).map((m) => m.uid))).toEqual([uid]);
  });

  test('the open marker-type picker has no axe violations (WCAG 2.1 A / AA)', async () => {
    const page = await adminPage();
    const button = toolsPanel(page).getByRole('button', { name: /^Marker type:/ });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    await toolsPanel(page).getByRole('group', { name: 'Subcategory', exact: true }).waitFor();
    expect({ where: 'the marker-type picker open', violations: await violations(page) }).toEqual({ where: 'the marker-type picker open', violations: [] });
  });
});

describe('on a 390×844 touch screen in Russian', () => {
  test('the "Edit new" checkbox shows «Правка новых», which its name starts with', async () => {
    const page = await adminPage({ width: PHONE.width, height: PHONE.height, hasTouch: true });
    const panel = await russianToolsOnPhone(page);

    const check = panel.getByRole('checkbox', { name: /^Правка новых: открывать/ });
    await expect.poll(() => check.isVisible()).toBe(true);
    // What shows beside it: the short text; the whole text is clipped to nothing (admin.css).
    const label = check.locator('xpath=ancestor::label[1]');
    const shown = await label.evaluate((el) =>
      [...el.querySelectorAll('span')]
        .filter((s) => {
          const r = s.getBoundingClientRect();
          return r.width > 1 && r.height > 1 && getComputedStyle(s).display !== 'none';
        })
        .map((s) => s.textContent?.trim())
        .join(' '),
    );
    expect(shown).toBe('Правка новых');
    expect(await check.evaluate((el) => el.getAttribute('aria-label'))).toBe('Правка новых: открывать новые метки в режиме правки');
  });
});

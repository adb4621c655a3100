/**
 * Words that follow an EN↔RU switch made after they showed (docs/DECISIONS.md), against the real
 * server:
 * - the map page's error card (the marker list out of reach): heading, reason and buttons all
 *   said again in Russian, no English left in the card;
 * - the not-found page (an unknown path, an unknown map id) has the EN / RU switch in its header:
 *   RU says it in Russian, EN says it in English again.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseUrl, useBrowser } from './browser';

const browser = useBrowser();

/** The compact marker list the map page reads (src/api/markers.ts compactPath). */
const MARKERS = /\/api\/be\/markers\/compact\?/;

describe('the map page\'s error card', () => {
  test('the server out of reach: the card is said in Russian after RU, heading, reason and buttons, no English left', async () => {
    const { page, errors } = await browser.newPage();
    errors.allow(/ERR_FAILED.*\/api\/be\/markers\/compact/);
    await page.route(MARKERS, (route) => route.abort());
    await page.goto(`${baseUrl()}/map/customs`, { waitUntil: 'domcontentloaded' });
    const card = page.locator('.map-error[role="alert"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe('The map could not be loaded');
    expect(await card.textContent()).toContain('The server could not be reached. Check that it is running and try again.');
    expect(await card.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: 'All maps' }).isVisible()).toBe(true);

    await page.getByRole('banner').getByRole('button', { name: 'RU Русский', exact: true }).click();
    await card.getByRole('heading', { level: 2, name: 'Не удалось загрузить карту' }).waitFor();
    await expect.poll(() => card.locator('p').first().textContent()).toBe('Сервер недоступен. Проверьте, что он запущен, и попробуйте снова.');
    expect(await card.getByRole('button', { name: 'Попробовать снова' }).isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: 'Все карты' }).isVisible()).toBe(true);
    // Nothing of the English card is left (the Russian words have no Latin letters).
    expect(await card.textContent()).not.toMatch(/[A-Za-z]/);
  });
});

/** The not-found page's header (a header inside `main`: no banner landmark). */
const header = (page: Page) => page.locator('.page__header');

describe('the not-found page', () => {
  for (const path of ['/nope/x', '/map/nonexistent']) {
    test(`${path}: its header has EN / RU; RU says it in Russian, EN in English again`, async () => {
      const { page } = await browser.newPage();
      await page.goto(`${baseUrl()}${path}`, { waitUntil: 'domcontentloaded' });
      await header(page).getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      const english = header(page).getByRole('group', { name: 'Language' });
      expect(await english.isVisible()).toBe(true);
      expect(await header(page).getByRole('link', { name: 'raidmap' }).getAttribute('href')).toBe('/');

      await english.getByRole('button', { name: 'RU Русский', exact: true }).click();
      await header(page).getByRole('heading', { level: 1, name: 'Страница не найдена' }).waitFor();
      const russian = header(page).getByRole('group', { name: 'Язык' });
      expect(await russian.getByRole('button', { name: 'RU Русский', exact: true }).getAttribute('aria-pressed')).toBe('true');
      expect(await russian.getByRole('button', { name: 'EN English', exact: true }).getAttribute('aria-pressed')).toBe('false');
      const said = path === '/nope/x' ? 'По этому адресу ничего нет.' : 'Карты «nonexistent» не существует.';
      expect(await header(page).textContent()).toContain(said);

      await russian.getByRole('button', { name: 'EN English', exact: true }).click();
      await header(page).getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await english.getByRole('button', { name: 'EN English', exact: true }).getAttribute('aria-pressed')).toBe('true');
    });
  }
});

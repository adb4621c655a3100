/**
 * What makes an end-to-end test fail besides its own assertions: console errors, page errors,
 * crashes and 5xx responses on a page. Shared by e2e/browser.ts and e2e/support/editor.ts.
 */
import type { Page, Response } from 'playwright-core';

export interface PageErrors {
  /** Console errors, page errors and 5xx responses seen so far. */
  readonly list: string[];
  /** Ignore errors matching this pattern from now on (for tests that provoke them, a 409 say). */
  allow(pattern: RegExp): void;
}

export function trackErrors(page: Page): PageErrors {
  const list: string[] = [];
  const allowed: RegExp[] = [];
  const add = (text: string) => {
    if (!allowed.some((re) => re.test(text))) list.push(text);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') add(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => add(`page error: ${error.stack ?? error.message}`));
  page.on('response', (response: Response) => {
    if (response.status() >= 500) add(`HTTP ${response.status()} for ${response.url()}`);
  });
  page.on('crash', () => add('page crashed'));
  return {
    list,
    allow: (pattern) => {
      allowed.push(pattern);
    },
  };
}

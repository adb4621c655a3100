// @vitest-environment jsdom
/** The classic script that marks an overlay page before its first paint (no dark flash in OBS). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseOverlayParams } from '../../domain/overlay';
import { OVERLAY_DOCUMENT_CLASS } from './useOverlayDocument';

const root = resolve(__dirname, '../../..');
const script = readFileSync(resolve(root, 'assets/public/overlay-first-paint.js'), 'utf8');

/** Runs the script for an address; the class it leaves on <html>. */
function classAfter(search: string): string {
  const html = document.createElement('html');
  runInNewContext(script, { window: { location: { search } }, document: { documentElement: html }, URLSearchParams });
  return html.className;
}

describe('overlay-first-paint.js', () => {
  it('marks exactly the addresses parseOverlayParams takes as the overlay', () => {
    for (const search of ['?overlay=1&connection=ABCDE23456', '?overlay=yes', '?overlay=%20ON', '?overlay=true', '', '?overlay=0', '?overlay=no', '?connection=ABCDE23456', '?overlay=']) {
      expect(classAfter(search), search).toBe(parseOverlayParams(search) ? OVERLAY_DOCUMENT_CLASS : '');
    }
  });

  it('runs from index.html as a classic script in <head>, before the entry module', () => {
    const html = readFileSync(resolve(root, 'index.html'), 'utf8');
    const tag = '<script src="/overlay-first-paint.js"></script>';
    expect(html.indexOf(tag)).toBeGreaterThan(0);
    expect(html.indexOf(tag)).toBeLessThan(html.indexOf('</head>'));
    expect(html.indexOf(tag)).toBeLessThan(html.indexOf('type="module"'));
  });
});

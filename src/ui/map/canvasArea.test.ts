// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { measureCanvasArea } from './canvasArea';

function box(element: Element, left: number, top: number, width: number, height: number): void {
  element.getBoundingClientRect = () => DOMRect.fromRect({ x: left, y: top, width, height });
}

function element(className: string, parent: HTMLElement): HTMLElement {
  const el = document.createElement('div');
  el.className = className;
  parent.append(el);
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('measureCanvasArea', () => {
  it('gives the canvas size and the boxes over it, in canvas pixels', () => {
    const page = element('map-page', document.body);
    box(element('map-canvas', page), 20, 30, 1000, 800);
    box(element('map-topbar topbar', page), 30, 40, 600, 120);
    box(element('map-panel map-panel--right', page), 750, 40, 260, 700);
    box(element('admin-dock', page), 30, 790, 980, 40);
    // Hidden or empty: not a cover.
    box(element('map-panel map-panel--left', page), 0, 0, 0, 0);
    box(element('map-popup', page), 100, 100, 200, 200);
    expect(measureCanvasArea()).toEqual({
      width: 1000,
      height: 800,
      covers: [
        { left: 10, top: 10, right: 610, bottom: 130 },
        { left: 730, top: 10, right: 990, bottom: 710 },
        { left: 10, top: 760, right: 990, bottom: 800 },
      ],
    });
  });

  it('is null without a laid-out canvas', () => {
    expect(measureCanvasArea()).toBeNull();
    element('map-canvas', document.body);
    expect(measureCanvasArea()).toBeNull();
  });
});

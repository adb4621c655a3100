// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { measureCanvasArea, watchCanvasArea } from './canvasArea';

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
  vi.unstubAllGlobals();
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
        // A side panel: the column it may grow to, down to the canvas's bottom.
        { left: 730, top: 10, right: 990, bottom: 800 },
        { left: 10, top: 760, right: 990, bottom: 800 },
      ],
    });
  });

  it('counts a short side panel (its quest list still loading) down to the canvas\'s bottom, a phone\'s sheet as it is', () => {
    const page = element('map-page', document.body);
    box(element('map-canvas', page), 0, 0, 1280, 800);
    const right = element('map-panel map-panel--right', page);
    box(right, 1000, 10, 270, 225);
    expect(measureCanvasArea()?.covers).toEqual([{ left: 1000, top: 10, right: 1270, bottom: 800 }]);
    // A phone: the levels and quests sheet across the bottom.
    box(page.querySelector('.map-canvas')!, 0, 0, 390, 844);
    box(right, 10, 500, 370, 334);
    expect(measureCanvasArea()?.covers).toEqual([{ left: 10, top: 500, right: 380, bottom: 834 }]);
  });

  it('is null without a laid-out canvas', () => {
    expect(measureCanvasArea()).toBeNull();
    element('map-canvas', document.body);
    expect(measureCanvasArea()).toBeNull();
  });
});

/** A ResizeObserver that reports when a test says the layout changed (jsdom has none). */
class FakeResizeObserver {
  static all: FakeResizeObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(private readonly callback: () => void) {
    FakeResizeObserver.all.push(this);
  }
  observe(element: Element) {
    this.observed.add(element);
  }
  unobserve(element: Element) {
    this.observed.delete(element);
  }
  disconnect() {
    this.observed.clear();
  }
  /** The layout changed the size of `element`. */
  static resize(element: Element) {
    for (const observer of FakeResizeObserver.all) if (observer.observed.has(element)) observer.callback();
  }
}

const mutationsDelivered = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('watchCanvasArea', () => {
  it('calls back when the canvas or a cover changes size, and when a cover comes or goes', async () => {
    FakeResizeObserver.all = [];
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const page = element('map-page', document.body);
    const canvas = element('map-canvas', page);
    const bar = element('map-topbar', page);
    const onChange = vi.fn();
    const stop = watchCanvasArea(onChange);
    FakeResizeObserver.resize(bar);
    FakeResizeObserver.resize(canvas);
    expect(onChange).toHaveBeenCalledTimes(2);
    // The admin dock mounts later (a chunk of its own): it is observed from then on.
    const holder = element('admin-holder', page);
    const dock = element('admin-dock', holder);
    await mutationsDelivered();
    FakeResizeObserver.resize(dock);
    expect(onChange).toHaveBeenCalledTimes(3);
    // Other changes of the page (a popup, the status bar's text) are not the area's.
    element('map-popup', page);
    await mutationsDelivered();
    expect(onChange).toHaveBeenCalledTimes(3);
    // A panel that goes reports no size any more: its going is the change.
    holder.remove();
    await mutationsDelivered();
    expect(onChange).toHaveBeenCalledTimes(4);
    FakeResizeObserver.resize(dock);
    expect(onChange).toHaveBeenCalledTimes(4);
    stop();
    FakeResizeObserver.resize(bar);
    element('map-panel', page);
    await mutationsDelivered();
    expect(onChange).toHaveBeenCalledTimes(4);
  });

  it('does nothing without ResizeObserver', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const onChange = vi.fn();
    const stop = watchCanvasArea(onChange);
    element('map-topbar', document.body);
    stop();
    expect(onChange).not.toHaveBeenCalled();
  });
});

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAPS } from '../../domain/maps';
import type { TileManifest } from '../../domain/tiles';
import { posterTiles } from '../../engine/kernels/first-view';
import { HTML_POSTER_CLASS } from '../../domain/tiles';
import { adoptPoster, discardHtmlPoster, dismissPoster, POSTER_TIMING, posterPaintedAt, posterShown, showPoster } from './poster';

const customs = MAPS.customs;
const manifest: TileManifest = { map: 'customs', version: 'v9', tileSize: 256, minZ: 0, maxZ: 7, prebuiltMaxZ: 3, width: 4400, height: 3200, layers: [...customs.layers], format: 'webp' };
const poster = () => document.querySelector<HTMLDivElement>('.map-poster');

describe('the map poster', () => {
  afterEach(() => {
    dismissPoster();
    document.body.innerHTML = '';
    vi.useRealTimers();
  });

  it('shows the first view’s tiles as images where the engine will draw them, hidden from assistive technology', () => {
    expect(showPoster(customs, manifest)).toBe(true);
    const element = poster()!;
    expect(element.getAttribute('aria-hidden')).toBe('true');
    const expected = posterTiles(customs, manifest, { width: window.innerWidth, height: window.innerHeight }, window.devicePixelRatio || 1);
    const images = [...element.querySelectorAll('img')];
    expect(images).toHaveLength(expected.length);
    images.forEach((img, i) => {
      const t = expected[i];
      expect(img.getAttribute('src')).toBe(`/tiles/customs/v9/${t.layer}/${t.z}/${t.x}/${t.y}.webp`);
      expect(img.alt).toBe('');
      expect(img.getAttribute('elementtiming')).toBe(POSTER_TIMING);
      expect(img.style.left).toBe(`${t.left}px`);
      expect(img.style.top).toBe(`${t.top}px`);
      expect(img.style.width).toBe(`${t.width}px`);
    });
    // One poster at a time.
    expect(showPoster(customs, manifest)).toBe(false);
    expect(document.querySelectorAll('.map-poster')).toHaveLength(1);
  });

  it('is taken into the map page’s slot for its own map only, and goes with a fade', () => {
    vi.useFakeTimers();
    showPoster(customs, manifest);
    const slot = document.createElement('div');
    document.body.append(slot);
    expect(adoptPoster('woods', slot)).toBe(false);
    expect(adoptPoster('customs', slot)).toBe(true);
    expect(poster()!.parentElement).toBe(slot);
    dismissPoster({ fade: true });
    expect(posterShown()).toBe(false);
    expect(poster()!.classList.contains('map-poster--gone')).toBe(true);
    vi.advanceTimersByTime(250);
    expect(poster()).toBeNull();
    expect(adoptPoster('customs', slot)).toBe(false);
  });

  it('shows nothing on a viewport of no size, and a dismissal with none up does nothing', () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 0 });
    try {
      expect(showPoster(customs, manifest)).toBe(false);
      expect(poster()).toBeNull();
      dismissPoster({ fade: true });
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('knows when its first tile was painted, for its own map, after it is gone too', async () => {
    showPoster(customs, manifest);
    expect(posterPaintedAt('customs')).toBeNull();
    // jsdom has no Element Timing: the poster falls back to the frame after an image's load.
    poster()!.querySelector('img')!.dispatchEvent(new Event('load'));
    await vi.waitFor(() => expect(posterPaintedAt('customs')).not.toBeNull());
    dismissPoster();
    expect(posterPaintedAt('customs')).toBeGreaterThan(0);
    expect(posterPaintedAt('woods')).toBeNull();
  });

  describe('the poster in the page\'s HTML (server/http/map-poster.ts)', () => {
    /** The markup the server writes at the start of the body. */
    const htmlPoster = (mapId = 'customs') => {
      document.body.insertAdjacentHTML('afterbegin', `<div class="map-poster ${HTML_POSTER_CLASS}" aria-hidden="true" data-map="${mapId}"><span class="t0" elementtiming="${POSTER_TIMING}"></span><span class="t1" elementtiming="${POSTER_TIMING}"></span></div>`);
      return document.querySelector<HTMLDivElement>(`.${HTML_POSTER_CLASS}`)!;
    };
    const withPixelRatio = (dpr: number, run: () => void) => {
      const before = window.devicePixelRatio;
      Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: dpr });
      try {
        run();
      } finally {
        Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: before });
      }
    };

    it('is adopted as it is where it covers the window: no image of the page\'s own, and it goes as the page\'s would', () => {
      vi.useFakeTimers();
      const element = htmlPoster();
      withPixelRatio(1, () => expect(showPoster(customs, manifest)).toBe(true));
      expect(document.querySelectorAll('.map-poster')).toHaveLength(1);
      expect(element.querySelectorAll('img')).toHaveLength(0);
      const slot = document.createElement('div');
      document.body.append(slot);
      expect(adoptPoster('customs', slot)).toBe(true);
      expect(element.parentElement).toBe(slot);
      dismissPoster({ fade: true });
      vi.advanceTimersByTime(250);
      expect(document.querySelector('.map-poster')).toBeNull();
    });

    it('gives way to the page\'s own on a pixel ratio or a window it was not written for, or for another map', () => {
      for (const [dpr, mapId] of [[1.75, 'customs'], [1, 'woods']] as const) {
        htmlPoster(mapId);
        withPixelRatio(dpr, () => expect(showPoster(customs, manifest)).toBe(true));
        expect(document.querySelector(`.${HTML_POSTER_CLASS}`), `${dpr} ${mapId}`).toBeNull();
        expect(poster()!.querySelectorAll('img').length).toBeGreaterThan(0);
        dismissPoster();
      }
      const height = window.innerHeight;
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: 5000 });
      try {
        htmlPoster();
        withPixelRatio(1, () => expect(showPoster(customs, manifest)).toBe(true));
        expect(document.querySelector(`.${HTML_POSTER_CLASS}`)).toBeNull();
      } finally {
        Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
      }
    });

    it('is removed where the page shows none', () => {
      htmlPoster();
      discardHtmlPoster();
      expect(document.querySelector('.map-poster')).toBeNull();
      discardHtmlPoster();
    });
  });
});

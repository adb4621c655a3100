import { describe, expect, it } from 'vitest';
import { MAPS } from './maps';
import { DEFAULT_OVERLAY_SCALE, overlaySearch, overlayZoom, parseOverlayParams } from './overlay';

describe('parseOverlayParams', () => {
  it('is null on the normal page', () => {
    expect(parseOverlayParams('')).toBeNull();
    expect(parseOverlayParams('?connection=ABCDEFGHJK')).toBeNull();
    expect(parseOverlayParams('?overlay=0')).toBeNull();
    expect(parseOverlayParams('?overlay=false')).toBeNull();
    expect(parseOverlayParams('?overlay=')).toBeNull();
    expect(parseOverlayParams('?overlay=maybe')).toBeNull();
  });

  it('reads overlay=1 with the defaults, with or without the ?', () => {
    expect(parseOverlayParams('?overlay=1')).toEqual({ zoom: null, scale: DEFAULT_OVERLAY_SCALE });
    expect(parseOverlayParams('overlay=true')).toEqual({ zoom: null, scale: DEFAULT_OVERLAY_SCALE });
    expect(parseOverlayParams('?connection=ABCDEFGHJK&overlay=YES')).toEqual({ zoom: null, scale: DEFAULT_OVERLAY_SCALE });
  });

  it('reads the zoom and the label scale', () => {
    expect(parseOverlayParams('?overlay=1&zoom=2.5&scale=2')).toEqual({ zoom: 2.5, scale: 2 });
    expect(parseOverlayParams('?overlay=1&scale=1')).toEqual({ zoom: null, scale: 1 });
  });

  it('ignores a zoom that is not a sensible number and clamps the scale', () => {
    for (const zoom of ['abc', '-1', '0', '1e9', 'Infinity', '']) expect(parseOverlayParams(`?overlay=1&zoom=${zoom}`)?.zoom).toBeNull();
    expect(parseOverlayParams('?overlay=1&scale=10')?.scale).toBe(4);
    expect(parseOverlayParams('?overlay=1&scale=0.1')?.scale).toBe(0.5);
    expect(parseOverlayParams('?overlay=1&scale=-2')?.scale).toBe(DEFAULT_OVERLAY_SCALE);
    expect(parseOverlayParams('?overlay=1&scale=big')?.scale).toBe(DEFAULT_OVERLAY_SCALE);
  });
});

describe('overlayZoom', () => {
  const customs = MAPS.customs;
  it('is the zoom asked for, within the map limits', () => {
    expect(overlayZoom({ zoom: 3, scale: 1 }, customs)).toBe(3);
    expect(overlayZoom({ zoom: 50, scale: 1 }, customs)).toBe(customs.maxZoom);
    expect(overlayZoom({ zoom: 0.02, scale: 1 }, customs)).toBe(customs.minZoom);
  });
  it('defaults to a close view, never further out than the start zoom', () => {
    expect(overlayZoom({ zoom: null, scale: 1 }, customs)).toBe(1.5);
    expect(overlayZoom({ zoom: null, scale: 1 }, { startZoom: 2, minZoom: 0.1, maxZoom: 10 })).toBe(2);
  });
});

describe('overlaySearch', () => {
  it('keeps only the overlay parameters', () => {
    expect(overlaySearch('?overlay=1&zoom=2&scale=2&quest=q1')).toBe('?overlay=1&zoom=2&scale=2');
    expect(overlaySearch('?overlay=on')).toBe('?overlay=1');
    expect(overlaySearch('?overlay=1&zoom=x&scale=y')).toBe('?overlay=1');
    expect(overlaySearch('?quest=q1')).toBe('');
  });
});

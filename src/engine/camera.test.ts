import { describe, expect, it } from 'vitest';
import { MAPS } from '../domain/maps';
import { Camera } from './camera';

describe('Camera', () => {
  it('opens at the map start zoom, centred on the map', () => {
    const cam = new Camera(MAPS.customs, { width: 1280, height: 800 });
    expect(cam.state).toEqual({ x: 2200, y: 1600, zoom: 0.6 });
    expect(cam.toScreen(2200, 1600)).toEqual({ x: 640, y: 400 });
  });

  it('applies gestures, clamps last and notifies only on change', () => {
    const cam = new Camera(MAPS.factory, { width: 800, height: 600 });
    const seen: number[] = [];
    const off = cam.onChange((v) => seen.push(v.zoom));
    for (let i = 0; i < 20; i++) cam.zoomAt(2, 100, 100);
    expect(cam.state.zoom).toBe(10);
    const countAtMax = seen.length;
    cam.zoomAt(2, 100, 100);
    expect(seen.length).toBe(countAtMax);
    for (let i = 0; i < 20; i++) cam.zoomAt(0.5, 700, 500);
    // At min zoom the whole map fits: it is centred, and panning cannot move it off.
    expect(cam.state).toEqual({ x: 1800, y: 1800, zoom: 0.12 });
    cam.panBy(1e9, 1e9);
    expect(cam.state).toEqual({ x: 1800, y: 1800, zoom: 0.12 });
    cam.set({ zoom: 2 });
    cam.panBy(1e9, 1e9);
    expect(cam.state).toEqual({ x: 200, y: 150, zoom: 2 });
    off();
    cam.panBy(-10, 0);
    expect(seen.at(-1)).toBe(2);
  });

  it('set() takes partial views, ignores non-numbers and clamps', () => {
    const cam = new Camera(MAPS.dev, { width: 100, height: 100 });
    cam.set({ zoom: 3 });
    expect(cam.state).toEqual({ x: 2000, y: 2000, zoom: 3 });
    cam.set({ x: 99999, zoom: undefined });
    expect(cam.state).toEqual({ x: 4000 - 50 / 3, y: 2000, zoom: 3 });
    cam.panBy(Number.NaN, 5);
    expect(cam.state).toEqual({ x: 4000 - 50 / 3, y: 2000, zoom: 3 });
  });

  it('lets the map\'s edges be panned in as far as the insets, and pulls them back when the insets shrink', () => {
    const cam = new Camera(MAPS.customs, { width: 390, height: 844 });
    const seen: number[] = [];
    cam.onChange((v) => seen.push(v.y));
    cam.set({ zoom: 1, y: 0 });
    expect(cam.toScreen(0, 0).y).toBe(0);
    // The compact top bar covers the top 64 px: the map's top edge can come down below it.
    cam.setInsets({ top: 64, right: 0, bottom: 0, left: 0 });
    cam.panBy(0, 500);
    expect(cam.toScreen(0, 0).y).toBe(64);
    const changes = seen.length;
    cam.setInsets({ top: 64, right: 0, bottom: 0, left: 0 });
    expect(seen.length).toBe(changes);
    // The bar goes: the map's edge goes back to the canvas's edge at once.
    cam.setInsets({ top: 0, right: 0, bottom: 0, left: 0 });
    expect(cam.toScreen(0, 0).y).toBe(0);
    expect(seen.length).toBe(changes + 1);
  });

  it('takes the marker popup\'s room together with the page\'s covers, and pulls the map back when the popup closes', () => {
    const cam = new Camera(MAPS.customs, { width: 390, height: 844 });
    cam.set({ zoom: 1, y: 0 });
    cam.setInsets({ top: 64, right: 0, bottom: 0, left: 0 });
    // The popup lets every point reach (195, 247): the map's top edge may come down to 246.5.
    cam.setInsets({ top: 246.5, right: 194.5, bottom: 596.5, left: 194.5 }, 'popup');
    cam.panBy(0, 1e6);
    expect(cam.toScreen(0, 0).y).toBe(246.5);
    // The page's covers change meanwhile (the top bar wraps): the popup's room is kept.
    cam.setInsets({ top: 100, right: 0, bottom: 0, left: 0 });
    expect(cam.toScreen(0, 0).y).toBe(246.5);
    // The popup closes: back under the page's insets at once.
    cam.setInsets({ top: 0, right: 0, bottom: 0, left: 0 }, 'popup');
    expect(cam.toScreen(0, 0).y).toBe(100);
  });

  it('centres on the player past the map\'s edge once the marker is handed over, after the page asked for it', () => {
    // Factory, zoom 4: the page centres on the new position first (wirePlayer), then sets the marker.
    const cam = new Camera(MAPS.factory, { width: 1280, height: 720 });
    cam.set({ zoom: 4 });
    cam.set({ x: 3928.3, y: 1388.6 });
    expect(cam.state.x).toBe(3600 - 640 / 4);
    cam.setReach({ x: 3928.3, y: 1388.6 });
    expect(cam.state).toEqual({ x: 3928.3, y: 1388.6, zoom: 4 });
    // A gesture since: a new reach does not bring back the old centre, and a pan stops at the player.
    cam.panBy(2000, 0);
    cam.setReach({ x: 3900, y: 1388.6 });
    expect(cam.state.x).toBe(3928.3 - 2000 / 4);
    cam.panBy(-1e6, 0);
    expect(cam.state.x).toBe(3900);
    // No player: the map's own clamp again.
    cam.setReach(null);
    expect(cam.state.x).toBe(3600 - 640 / 4);
  });
});


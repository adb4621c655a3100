// @vitest-environment jsdom
/**
 * MarkerSprites draws what a draw list is told: after any run of replace, insert and remove,
 * its particles are the list's sprites in order (icon frame, layout position, size, alpha), and
 * the particle data is uploaded once per commit that changed something.
 */
import { Texture } from 'pixi.js';
import { describe, expect, it, vi } from 'vitest';
import { SUBCATEGORIES } from '../domain/categories';
import { ATLAS_CELL, type IconAtlas } from './icon-atlas';
import type { MarkerSprite } from './marker-draw-list';
import { MarkerSprites } from './marker-sprites';
import { RecordingDrawList } from './testing/recording-draw-list';

const frames = SUBCATEGORIES.map(() => new Texture());
const atlas: IconAtlas = { texture: Texture.EMPTY, frames, failed: [], from: 'svg', destroy: () => undefined };

function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function randomSprite(rand: () => number): MarkerSprite {
  return { icon: Math.floor(rand() * SUBCATEGORIES.length), layoutX: rand() * 1000, layoutY: rand() * 1000, size: 28 + rand() * 10, alpha: rand() < 0.5 ? 1 : 0.2 };
}

function drawn(sprites: MarkerSprites) {
  return sprites.container.particleChildren.map((p) => ({
    icon: frames.indexOf(p.texture),
    layoutX: p.x,
    layoutY: p.y,
    size: p.scaleX * ATLAS_CELL,
    alpha: p.alpha,
  }));
}

describe('MarkerSprites', () => {
  it('mirrors the list through replace, insert and remove, reusing its particles', () => {
    const rand = rng(7);
    const sprites = new MarkerSprites(atlas);
    const list = new RecordingDrawList();
    const both = <A extends unknown[]>(call: (l: MarkerSprites | RecordingDrawList, ...args: A) => void, ...args: A) => {
      call(sprites, ...args);
      call(list, ...args);
    };
    const first = Array.from({ length: 50 }, () => randomSprite(rand));
    both((l) => l.replace(first.length, (k, out) => Object.assign(out, first[k])));
    for (let step = 0; step < 400; step++) {
      const n = sprites.count;
      if (rand() < 0.5 || n === 0) both((l, k, s) => l.insert(k, s), Math.floor(rand() * (n + 1)), randomSprite(rand));
      else both((l, k) => l.remove(k), Math.floor(rand() * n));
      if (step % 97 === 0) {
        const again = Array.from({ length: Math.floor(rand() * 80) }, () => randomSprite(rand));
        both((l) => l.replace(again.length, (k, out) => Object.assign(out, again[k])));
      }
    }
    both((l) => l.commit());
    expect(list.committed.length).toBeGreaterThan(0);
    expect(drawn(sprites)).toEqual(list.committed);
    sprites.dispose();
  });

  it('uploads the particle data once per commit, and only after a change', () => {
    const sprites = new MarkerSprites(atlas);
    const update = vi.spyOn(sprites.container, 'update');
    const s = randomSprite(rng(1));
    sprites.insert(0, s);
    sprites.insert(1, s);
    sprites.remove(0);
    expect(update).not.toHaveBeenCalled();
    sprites.commit();
    expect(update).toHaveBeenCalledTimes(1);
    sprites.commit();
    expect(update).toHaveBeenCalledTimes(1);
    sprites.setOffset(30, 40);
    expect(sprites.container.position).toMatchObject({ x: 30, y: 40 });
    // A remove out of range changes nothing.
    sprites.remove(5);
    sprites.commit();
    expect(update).toHaveBeenCalledTimes(1);
    expect(sprites.count).toBe(1);
    sprites.dispose();
  });
});

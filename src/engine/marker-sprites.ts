/**
 * Draws a MarkerDrawList with PixiJS: one ParticleContainer on the icon atlas (one draw call),
 * a particle per placed marker, in the list's order. All particle data is static: it is
 * uploaded only at a commit after the list changed, never per pan frame (a pan moves the
 * container).
 */
import { Particle, ParticleContainer } from 'pixi.js';
import { ATLAS_CELL, type IconAtlas } from './icon-atlas';
import type { MarkerDrawList, MarkerSprite } from './marker-draw-list';

export class MarkerSprites implements MarkerDrawList {
  readonly container: ParticleContainer<Particle>;
  /** Particles to reuse: pool[0 … n) are the container's children, the rest spare. */
  private readonly pool: Particle[] = [];
  private readonly scratch: MarkerSprite = { icon: 0, layoutX: 0, layoutY: 0, size: 0, alpha: 1 };
  private changed = false;

  constructor(private readonly atlas: IconAtlas) {
    this.container = new ParticleContainer<Particle>({
      label: 'markers',
      texture: atlas.texture,
      // All static: particle data is uploaded only when the list changes (container.update()).
      dynamicProperties: { position: false, vertex: false, rotation: false, uvs: false, color: false },
    });
  }

  /** Particles drawn now. */
  get count(): number {
    return this.container.particleChildren.length;
  }

  setOffset(x: number, y: number): void {
    this.container.position.set(x, y);
  }

  replace(count: number, write: (k: number, out: MarkerSprite) => void): void {
    const children = this.container.particleChildren;
    for (let k = 0; k < count; k++) {
      write(k, this.scratch);
      let p = this.pool[k];
      if (!p) {
        p = this.newParticle();
        this.pool.push(p);
      }
      this.dress(p, this.scratch);
      children[k] = p;
    }
    children.length = count;
    this.changed = true;
  }

  insert(k: number, sprite: MarkerSprite): void {
    const children = this.container.particleChildren;
    const n = children.length;
    const p = n < this.pool.length ? this.pool.splice(n, 1)[0] : this.newParticle();
    this.pool.splice(k, 0, p);
    this.dress(p, sprite);
    children.splice(k, 0, p);
    this.changed = true;
  }

  remove(k: number): void {
    const children = this.container.particleChildren;
    if (k < 0 || k >= children.length) return;
    // Its particle goes to the pool's spare end.
    const [p] = this.pool.splice(k, 1);
    this.pool.push(p);
    children.splice(k, 1);
    this.changed = true;
  }

  commit(): void {
    if (!this.changed) return;
    this.changed = false;
    this.container.update();
  }

  dispose(): void {
    this.container.destroy({ children: true });
    this.pool.length = 0;
  }

  private newParticle(): Particle {
    return new Particle({ texture: this.atlas.frames[0], anchorX: 0.5, anchorY: 0.5 });
  }

  private dress(p: Particle, s: MarkerSprite): void {
    p.texture = this.atlas.frames[s.icon] ?? this.atlas.frames[0];
    p.x = s.layoutX;
    p.y = s.layoutY;
    p.scaleX = p.scaleY = s.size / ATLAS_CELL;
    p.alpha = s.alpha;
  }
}

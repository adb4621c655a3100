/**
 * Tiles of every SVG layer (floor) of the map, in world space (map pixels; the parent
 * container carries the camera transform). One container per layer, in manifest order
 * (bottom first), each at the opacity of the selected level; layers at opacity 0 load nothing.
 *
 * Per update: pick the pyramid level for zoom × dpr, plan which loaded tiles cover the view
 * (wanted ones, else parents / children), hand the missing tiles to the loader centre-out,
 * and evict least-recently-drawn textures beyond the byte budget.
 */
import { Container, ImageSource, Sprite, Texture } from 'pixi.js';
import { layerOpacities, type MapDefinition } from '../domain/maps';
import { tileBounds, tilePath, type TileManifest } from '../domain/tiles';
import type { ViewportSize } from './kernels/camera';
import { planEviction, textureBytes } from './kernels/lru';
import { numKey, planCover, visibleTiles, type TileCoord } from './kernels/tiles';
import { TileLoader, fetchImageBitmap, type TileFetcher, type TileRequest } from './tile-loader';
import type { CameraView } from './types';

interface CachedTile {
  texture: Texture;
  bytes: number;
  lastUsed: number;
}

/**
 * New tile textures shown per frame: each is uploaded to the GPU in the frame that first
 * draws it, so arrivals are spread over frames (fallbacks cover the rest meanwhile).
 */
export const UPLOADS_PER_FRAME = 8;

/**
 * After the pyramid level changes, only tiles with nothing to stand in for them are fetched
 * for this long: a quick run of wheel steps passes through levels without requesting (and
 * then aborting) each one. Fallbacks cover the view meanwhile.
 */
export const LEVEL_SETTLE_MS = 150;

interface Floor {
  index: number;
  id: string;
  container: Container;
  sprites: Sprite[];
  opacity: number;
}

export interface TileLayerOptions {
  map: MapDefinition;
  manifest: TileManifest;
  tileBase: string;
  budgetBytes: number;
  /** A tile arrived: the engine schedules a frame. */
  onTile: () => void;
  fetcher?: TileFetcher<ImageBitmap>;
}

export interface TileUpdate {
  /** Every wanted tile of every shown layer is drawn (or failed). */
  settled: boolean;
  drawn: number;
  missing: number;
  /** Tiles decoded and waiting for an upload slot: the engine runs another frame. */
  waiting: number;
  /** > 0: fetches were deferred while the level settles; update again after this many ms. */
  recheckInMs: number;
}

export class TileLayer {
  readonly container = new Container({ label: 'tiles' });
  private readonly floors: Floor[];
  private readonly cache = new Map<number, CachedTile>();
  /** Decoded tiles waiting for their upload slot, oldest first. */
  private readonly arrived = new Map<number, ImageBitmap>();
  private cacheBytes = 0;
  private readonly loader: TileLoader<ImageBitmap>;
  private frame = 0;
  private lastZ = Number.NaN;
  private zChangedAt = 0;
  /** Tiles that failed to load (a failed tile is retried later). */
  failures = 0;

  constructor(private readonly options: TileLayerOptions) {
    this.floors = options.manifest.layers.map((id, index) => {
      const container = new Container({ label: `floor:${id}` });
      this.container.addChild(container);
      return { index, id, container, sprites: [], opacity: 1 };
    });
    this.loader = new TileLoader<ImageBitmap>({
      fetcher: options.fetcher ?? fetchImageBitmap,
      concurrency: 6,
      onLoad: (key, bitmap) => this.store(Number(key), bitmap),
      onError: (key, error) => {
        if ((error as { name?: string })?.name === 'AbortError') return;
        // One warning per engine: a broken tile server would otherwise flood the console.
        if (this.failures++ === 0) console.warn(`raidmap: tile ${key} failed (further failures are counted, not logged):`, error);
      },
    });
  }

  setLevel(levelNum: number): void {
    const opacities = layerOpacities(this.options.map, levelNum);
    for (const floor of this.floors) {
      // A layer of the manifest the definition does not know is drawn at full opacity only on the main level.
      floor.opacity = opacities[floor.id] ?? 0;
      floor.container.alpha = floor.opacity;
      floor.container.visible = floor.opacity > 0;
    }
  }

  update(view: CameraView, viewport: ViewportSize, dpr: number, now: number): TileUpdate {
    this.frame++;
    this.admitArrived();
    const { manifest } = this.options;
    const range = visibleTiles(view, viewport, dpr, manifest);
    if (range.z !== this.lastZ) {
      this.lastZ = range.z;
      this.zChangedAt = now;
    }
    const settleLeft = LEVEL_SETTLE_MS - (now - this.zChangedAt);
    let deferred = 0;
    const pinned = new Set<number>();
    const perLayerMissing: TileRequest[][] = [];
    let drawnTotal = 0;
    let missingTotal = 0;
    let unsettled = 0;
    for (const floor of this.floors) {
      if (floor.opacity <= 0) {
        this.showSprites(floor, []);
        continue;
      }
      for (const t of range.tiles) pinned.add(numKey(floor.index, t.z, t.x, t.y));
      const plan = planCover(range.tiles, (t) => this.cache.has(numKey(floor.index, t.z, t.x, t.y)), manifest);
      this.showSprites(floor, plan.draw);
      drawnTotal += plan.draw.length;
      missingTotal += plan.missing.length;
      const requests: TileRequest[] = [];
      const fetchNow = settleLeft > 0 ? plan.uncovered : plan.missing;
      deferred += plan.missing.length - fetchNow.length;
      for (const t of plan.missing) {
        if (!this.loader.hasFailed(String(numKey(floor.index, t.z, t.x, t.y)))) unsettled++;
      }
      for (const t of fetchNow) {
        const key = numKey(floor.index, t.z, t.x, t.y);
        if (this.arrived.has(key)) continue;
        requests.push({ key: String(key), url: `${this.options.tileBase}${tilePath(manifest, floor.id, t.z, t.x, t.y)}` });
      }
      perLayerMissing.push(requests);
    }
    // Interleave layers so every floor fills in centre-out at the same pace.
    const queue: TileRequest[] = [];
    const longest = Math.max(0, ...perLayerMissing.map((r) => r.length));
    for (let i = 0; i < longest; i++) for (const r of perLayerMissing) if (i < r.length) queue.push(r[i]);
    this.loader.want(queue);
    if (this.cacheBytes > this.options.budgetBytes) this.evict(pinned);
    return {
      settled: unsettled === 0,
      drawn: drawnTotal,
      missing: missingTotal,
      waiting: this.arrived.size,
      recheckInMs: deferred > 0 ? Math.max(1, settleLeft) : 0,
    };
  }

  /** Bytes of tile textures held. */
  get bytes(): number {
    return this.cacheBytes;
  }

  get cachedTiles(): number {
    return this.cache.size;
  }

  dispose(): void {
    this.loader.dispose();
    for (const tile of this.cache.values()) destroyTexture(tile.texture);
    this.cache.clear();
    for (const bitmap of this.arrived.values()) bitmap.close();
    this.arrived.clear();
    this.cacheBytes = 0;
    this.container.destroy({ children: true });
  }

  private store(key: number, bitmap: ImageBitmap): void {
    this.arrived.get(key)?.close();
    this.arrived.set(key, bitmap);
    this.options.onTile();
  }

  /** Moves up to UPLOADS_PER_FRAME arrived tiles into the cache (they draw, and upload, this frame). */
  private admitArrived(): void {
    let admitted = 0;
    for (const [key, bitmap] of this.arrived) {
      if (admitted >= UPLOADS_PER_FRAME) break;
      this.arrived.delete(key);
      const existing = this.cache.get(key);
      if (existing) {
        destroyTexture(existing.texture);
        this.cacheBytes -= existing.bytes;
      }
      const source = new ImageSource({ resource: bitmap, alphaMode: 'premultiplied-alpha', scaleMode: 'linear' });
      const bytes = textureBytes(bitmap.width, bitmap.height);
      this.cache.set(key, { texture: new Texture({ source }), bytes, lastUsed: this.frame });
      this.cacheBytes += bytes;
      admitted++;
    }
  }

  private showSprites(floor: Floor, draw: TileCoord[]): void {
    const { width, height } = this.options.manifest;
    for (let i = 0; i < draw.length; i++) {
      const t = draw[i];
      const cached = this.cache.get(numKey(floor.index, t.z, t.x, t.y))!;
      cached.lastUsed = this.frame;
      let sprite = floor.sprites[i];
      if (!sprite) {
        sprite = new Sprite();
        floor.sprites.push(sprite);
        floor.container.addChild(sprite);
      }
      const b = tileBounds(width, height, t.z, t.x, t.y);
      sprite.texture = cached.texture;
      sprite.position.set(b.minX, b.minY);
      sprite.setSize(b.maxX - b.minX, b.maxY - b.minY);
      sprite.visible = true;
    }
    for (let i = draw.length; i < floor.sprites.length; i++) {
      floor.sprites[i].visible = false;
      floor.sprites[i].texture = Texture.EMPTY;
    }
  }

  private evict(pinned: Set<number>): void {
    const entries = [...this.cache].map(([key, t]) => ({
      key: String(key),
      bytes: t.bytes,
      lastUsed: t.lastUsed,
      pinned: pinned.has(key) || t.lastUsed === this.frame,
    }));
    for (const evicted of planEviction(entries, this.options.budgetBytes)) {
      const key = Number(evicted);
      const tile = this.cache.get(key);
      if (!tile) continue;
      destroyTexture(tile.texture);
      this.cache.delete(key);
      this.cacheBytes -= tile.bytes;
    }
  }
}

function destroyTexture(texture: Texture): void {
  const resource = texture.source.resource as { close?: () => void } | undefined;
  texture.destroy(true);
  resource?.close?.();
}

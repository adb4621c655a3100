/**
 * Tiles of every SVG layer (floor) of the map, in world space (map pixels; the parent
 * container carries the camera transform). One container per layer, in manifest order
 * (bottom first), each at the opacity of the selected level; layers at opacity 0 load nothing.
 *
 * Per update: pick the pyramid level for zoom × dpr, plan which loaded tiles cover the view
 * (wanted ones, else parents / children), hand the missing tiles to the loader centre-out,
 * and evict least-recently-drawn textures beyond the byte budget. An update whose view needs
 * the same tiles as the last one, with nothing arrived or changed since, keeps the last plan.
 *
 * Tiles that are drawn but are not the real ones are asked for again while they are wanted
 * (kernels/tile-refresh.ts), and the answer replaces them in place (same sprite, new texture):
 * - a **stand-in** the server sent while its render limit refused the tile (`X-Tile-Fallback`,
 *   tile-response.ts), after a wait that grows while the answers are stand-ins;
 * - every tile of a **replaced version**: a 404 for a tile of the layer's version makes it read
 *   the map's manifest again, and where the server now has another version of the same pyramid
 *   (the operator replaced the drawing), the layer switches to it. Requests of the old version
 *   are dropped, its tiles stay drawn until the new version's arrive, and the camera, markers and
 *   popups are the engine's and do not change. A manifest of another pyramid (a new build of
 *   the site) cannot be switched to in place: the layer stops asking for tiles (`outdated`).
 *   While the manifest is read, no other request of the layer's version starts (VERSION_HOLD_MS).
 */
import { Container, ImageSource, Sprite, Texture } from 'pixi.js';
import { layerOpacities, type MapDefinition } from '../domain/maps';
import { isTileManifest, tileBounds, tileManifestPath, tilePath, type TileManifest } from '../domain/tiles';
import type { ViewportSize } from './kernels/camera';
import { FrameBudget } from './kernels/frame-budget';
import { planEviction, textureBytes } from './kernels/lru';
import { nextRefresh, versionGone, type Refresh } from './kernels/tile-refresh';
import { baseTiles, numKey, planCover, splitNumKey, visibleTiles, type TileCoord } from './kernels/tiles';
import { TileLoader, fetchImageBitmap, type TileFetcher, type TileRequest } from './tile-loader';
import { standInOf, tileErrorStatus, TileHttpError } from './tile-response';
import type { CameraView } from './types';

interface CachedTile {
  texture: Texture;
  /** The tile's own sprite, placed once in its floor's container for its pyramid level. */
  sprite: Sprite;
  floor: number;
  bytes: number;
  lastUsed: number;
}

/**
 * Main-thread time (ms) a frame may spend uploading arrived tiles to the GPU; at least one is
 * uploaded per frame. The rest wait for the next frames (fallbacks cover them meanwhile).
 */
export const UPLOAD_BUDGET_MS = 3;
/** Tile requests in flight once the map is ready. */
export const CONCURRENCY = 6;
/**
 * Start-up (until the engine says the map is ready): the first view is one burst of wanted
 * tiles and nobody pans yet. A frame may spend this long on uploads, so the view fills in
 * within a few frames, and twice the requests are in flight: the browser queues those beyond
 * its connections to the server and starts them as connections free up, even while the main
 * thread is busy starting the page (the loader itself only starts requests between tasks).
 */
export const STARTUP_UPLOAD_BUDGET_MS = 16;
export const STARTUP_CONCURRENCY = 12;

/**
 * After the pyramid level changes, only tiles with nothing to stand in for them are fetched
 * for this long: a quick run of wheel steps passes through levels without requesting (and
 * then aborting) each one. Fallbacks cover the view meanwhile.
 */
export const LEVEL_SETTLE_MS = 150;

/**
 * Once the map is ready, the coarsest pyramid level of each floor shown at least this opaque is
 * loaded too (a few tiles per floor, kept): whatever the view jumps to then has a blurred parent
 * to draw at once instead of a hole. A page that starts zoomed in (the stream overlay) would
 * otherwise never load it, and show the background (see-through on the overlay) after a jump.
 */
export const BASE_MIN_OPACITY = 0.5;

/** A failed tile is asked for again after this long (or the answer's Retry-After, if longer). */
export const FAILED_RETRY_MS = 10_000;
/** After reading the manifest for a 404, the next 404 reads it again after this long at the soonest. */
export const VERSION_CHECK_MS = 30_000;
/**
 * While the manifest is read for a 404, no request of the layer's version starts (they would
 * all be 404s too, where the version is gone), for this long at most (a manifest that does not
 * come must not stop the tiles).
 */
export const VERSION_HOLD_MS = 5_000;

interface Floor {
  index: number;
  id: string;
  container: Container;
  /** One container per pyramid level, coarse first: a fallback parent draws under its children. */
  levels: Container[];
  /** Keys of the tiles shown now: a frame that draws the same tiles changes nothing. */
  shown: Set<number>;
  opacity: number;
}

export interface TileLayerOptions {
  map: MapDefinition;
  manifest: TileManifest;
  tileBase: string;
  budgetBytes: number;
  fetcher?: TileFetcher<ImageBitmap>;
  now?: () => number;
  /** The map's current manifest, as the server sends it (default: GET `{tileBase}/tiles/{map}/manifest.json`). */
  fetchManifest?: () => Promise<unknown>;
  /** 0 ≤ x < 1, for the refresh waits' spread (tests pin it). */
  random?: () => number;
}

/** What the engine hands the layer once its renderer runs (the layer may start loading before). */
export interface TileLayerHooks {
  /** A tile arrived: the engine schedules a frame. */
  onTile: () => void;
  /** Uploads a new tile texture to the GPU now, so the upload budget counts it. */
  upload: (texture: Texture) => void;
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
  private hooks: TileLayerHooks | null = null;
  private readonly uploads: FrameBudget;
  private startingUp = true;
  /** The last plan's tile range and result, and whether anything since could change it. */
  private lastRange = '';
  private lastUpdate: TileUpdate | null = null;
  private changed = true;
  /** Tiles that failed to load (a failed tile is retried later). */
  failures = 0;
  /** The tile version drawn and asked for (the options' manifest until the server's changes). */
  private manifestNow: TileManifest;
  /** Drawn tiles that are not the real ones (stand-ins, an old version's): asked for again when due. */
  private readonly refresh = new Map<number, Refresh>();
  /** The soonest due time of a wanted tile in `refresh` that is not due yet (Infinity: none). */
  private nextRefreshAt = Number.POSITIVE_INFINITY;
  /** The last plan deferred fetches while the level settles. */
  private lastDeferred = false;
  private checkingVersion = false;
  private versionCheckStartedAt = Number.NEGATIVE_INFINITY;
  private versionCheckAfter = Number.NEGATIVE_INFINITY;
  private outdated_ = false;
  private disposed = false;
  private readonly clock: () => number;
  private readonly random: () => number;

  constructor(private readonly options: TileLayerOptions) {
    this.manifestNow = options.manifest;
    this.clock = options.now ?? (() => performance.now());
    this.random = options.random ?? Math.random;
    this.floors = options.manifest.layers.map((id, index) => {
      const container = new Container({ label: `floor:${id}` });
      const levels: Container[] = [];
      for (let z = 0; z <= options.manifest.maxZ; z++) levels.push(container.addChild(new Container({ label: `z${z}` })));
      this.container.addChild(container);
      return { index, id, container, levels, shown: new Set<number>(), opacity: 1 };
    });
    this.uploads = new FrameBudget(UPLOAD_BUDGET_MS, this.clock);
    this.loader = new TileLoader<ImageBitmap>({
      fetcher: options.fetcher ?? fetchImageBitmap,
      concurrency: STARTUP_CONCURRENCY,
      retryMs: FAILED_RETRY_MS,
      now: this.clock,
      onLoad: (key, bitmap) => this.store(Number(key), bitmap),
      onError: (key, error) => this.failed(Number(key), error),
    });
  }

  /** The manifest whose tiles the layer asks for now. */
  get manifest(): TileManifest {
    return this.manifestNow;
  }

  /** The server's manifest is of another pyramid than this page's: no tile is asked for any more (the page needs a reload). */
  get outdated(): boolean {
    return this.outdated_;
  }

  /** Connects the layer to the engine: arrivals schedule frames, textures upload within the budget. */
  attach(hooks: TileLayerHooks): void {
    this.hooks = hooks;
    if (this.arrived.size > 0) hooks.onTile();
  }

  /** The map is ready: from now on, the interactive upload budget and concurrency. */
  endStartup(): void {
    if (!this.startingUp) return;
    this.startingUp = false;
    this.loader.setConcurrency(CONCURRENCY);
    // The base level's tiles are asked for from the next update on: have one.
    this.changed = true;
    this.hooks?.onTile();
  }

  setLevel(levelNum: number): void {
    this.changed = true;
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
    if (this.admitArrived(this.startingUp ? STARTUP_UPLOAD_BUDGET_MS : UPLOAD_BUDGET_MS) > 0) this.changed = true;
    const manifest = this.manifestNow;
    const range = visibleTiles(view, viewport, dpr, manifest);
    const rangeKey = `${range.z}:${range.minX}:${range.maxX}:${range.minY}:${range.maxY}`;
    const last = this.lastUpdate;
    // Same tiles wanted, nothing arrived, failed or changed level since, no fetch deferred, no
    // failed tile waiting for its retry and no drawn tile due to be asked for again: the last
    // plan stands (same sprites, same requests).
    const retryDue = last !== null && last.settled && last.missing > 0;
    if (!this.changed && last !== null && rangeKey === this.lastRange && !this.lastDeferred && !retryDue && now < this.nextRefreshAt) {
      return { ...last, waiting: this.arrived.size, recheckInMs: this.refreshInMs(now) };
    }
    this.changed = false;
    this.lastRange = rangeKey;
    if (range.z !== this.lastZ) {
      this.lastZ = range.z;
      this.zChangedAt = now;
    }
    const settleLeft = LEVEL_SETTLE_MS - (now - this.zChangedAt);
    let deferred = 0;
    const pinned = new Set<number>();
    const perLayerMissing: TileRequest[][] = [];
    const perLayerRefresh: TileRequest[][] = [];
    const baseRequests: TileRequest[] = [];
    const base = this.startingUp ? [] : baseTiles(manifest);
    this.nextRefreshAt = Number.POSITIVE_INFINITY;
    let drawnTotal = 0;
    let missingTotal = 0;
    let unsettled = 0;
    // The soonest retry of a wanted tile that failed: the engine looks again then, moving or not
    // (a map left still while the server was away would otherwise wait for the next pan).
    let failedRetryIn = Number.POSITIVE_INFINITY;
    for (const floor of this.floors) {
      if (floor.opacity <= 0) {
        this.showSprites(floor, []);
        continue;
      }
      for (const t of range.tiles) pinned.add(numKey(floor.index, t.z, t.x, t.y));
      if (floor.opacity >= BASE_MIN_OPACITY) {
        for (const t of base) {
          const key = numKey(floor.index, t.z, t.x, t.y);
          pinned.add(key);
          if (!this.cache.has(key) && !this.arrived.has(key) && !this.loader.hasFailed(String(key))) baseRequests.push(this.request(floor, key, t));
        }
      }
      // Parents as far up as the pyramid goes: the base level stands in for any tile.
      const plan = planCover(range.tiles, (t) => this.cache.has(numKey(floor.index, t.z, t.x, t.y)), manifest, manifest.maxZ - manifest.minZ);
      this.showSprites(floor, plan.draw);
      drawnTotal += plan.draw.length;
      missingTotal += plan.missing.length;
      const requests: TileRequest[] = [];
      const fetchNow = settleLeft > 0 ? plan.uncovered : plan.missing;
      deferred += plan.missing.length - fetchNow.length;
      for (const t of plan.missing) {
        const retryIn = this.loader.retryInMs(String(numKey(floor.index, t.z, t.x, t.y)));
        if (retryIn > 0) failedRetryIn = Math.min(failedRetryIn, retryIn);
        else unsettled++;
      }
      for (const t of fetchNow) {
        const key = numKey(floor.index, t.z, t.x, t.y);
        if (this.arrived.has(key)) continue;
        requests.push(this.request(floor, key, t));
      }
      perLayerMissing.push(requests);
      // Drawn wanted tiles that are not the real ones, when due (not while the level settles).
      const refreshes: TileRequest[] = [];
      if (this.refresh.size > 0) {
        for (const t of range.tiles) {
          const key = numKey(floor.index, t.z, t.x, t.y);
          const due = this.refresh.get(key);
          if (due === undefined || !this.cache.has(key) || this.arrived.has(key)) continue;
          if (due.dueAt > now) this.nextRefreshAt = Math.min(this.nextRefreshAt, due.dueAt);
          else if (settleLeft > 0) deferred++;
          else refreshes.push(this.request(floor, key, t));
        }
      }
      perLayerRefresh.push(refreshes);
    }
    // Interleave layers so every floor fills in centre-out at the same pace; missing tiles first.
    const queue: TileRequest[] = [];
    const holdLeft = this.versionHoldLeft();
    if (!this.outdated_ && holdLeft === 0) {
      for (const lists of [perLayerMissing, perLayerRefresh]) {
        const longest = Math.max(0, ...lists.map((r) => r.length));
        for (let i = 0; i < longest; i++) for (const r of lists) if (i < r.length) queue.push(r[i]);
      }
      // Last: the view's own tiles matter more than a fallback for the next jump.
      queue.push(...baseRequests);
    }
    this.loader.want(queue);
    if (this.cacheBytes > this.options.budgetBytes) this.evict(pinned);
    // Deferred fetches, and requests held while the manifest is read, are planned again next time.
    this.lastDeferred = deferred > 0 || holdLeft > 0;
    const settleIn = deferred > 0 ? Math.max(1, settleLeft) : 0;
    const retryIn = Number.isFinite(failedRetryIn) ? failedRetryIn : 0;
    const waits = [this.refreshInMs(now), settleIn, holdLeft, retryIn].filter((ms) => ms > 0);
    this.lastUpdate = {
      settled: unsettled === 0,
      drawn: drawnTotal,
      missing: missingTotal,
      waiting: this.arrived.size,
      recheckInMs: waits.length > 0 ? Math.min(...waits) : 0,
    };
    return this.lastUpdate;
  }

  /** Drawn tiles waiting to be asked for again (stand-ins, an old version's). */
  get refreshing(): number {
    return this.refresh.size;
  }

  private request(floor: Floor, key: number, t: TileCoord): TileRequest {
    return { key: String(key), url: `${this.options.tileBase}${tilePath(this.manifestNow, floor.id, t.z, t.x, t.y)}` };
  }

  /** Ms until the next wanted tile is due to be asked for again (0: none waits). */
  private refreshInMs(now: number): number {
    return Number.isFinite(this.nextRefreshAt) ? Math.max(1, Math.ceil(this.nextRefreshAt - now)) : 0;
  }

  /** Bytes of tile textures held. */
  get bytes(): number {
    return this.cacheBytes;
  }

  get cachedTiles(): number {
    return this.cache.size;
  }

  dispose(): void {
    this.disposed = true;
    this.loader.dispose();
    this.refresh.clear();
    for (const tile of this.cache.values()) {
      tile.sprite.destroy();
      destroyTexture(tile.texture);
    }
    this.cache.clear();
    for (const bitmap of this.arrived.values()) bitmap.close();
    this.arrived.clear();
    this.cacheBytes = 0;
    this.container.destroy({ children: true });
  }

  private store(key: number, bitmap: ImageBitmap): void {
    // A stand-in is drawn now and asked for again later; the real tile ends that.
    const standIn = standInOf(bitmap);
    if (standIn) this.refresh.set(key, nextRefresh(this.refresh.get(key), this.clock(), standIn.retryAfterMs, this.random));
    else this.refresh.delete(key);
    this.arrived.get(key)?.close();
    this.arrived.set(key, bitmap);
    this.hooks?.onTile();
  }

  private failed(key: number, error: unknown): void {
    if ((error as { name?: string })?.name === 'AbortError') return;
    this.changed = true;
    // The next plan sees the failure and sets the engine's recheck for its retry.
    this.hooks?.onTile();
    // One warning per engine: a broken tile server would otherwise flood the console.
    if (this.failures++ === 0) console.warn(`raidmap: tile ${key} failed (further failures are counted, not logged):`, error);
    const due = this.refresh.get(key);
    if (due) {
      // A drawn tile asked for again: it keeps being drawn, and waits longer for the next try.
      const now = this.clock();
      const retryAfter = error instanceof TileHttpError ? error.retryAfterMs : undefined;
      const next = nextRefresh(due, now, retryAfter, this.random);
      this.refresh.set(key, { attempt: next.attempt, dueAt: Math.max(next.dueAt, now + FAILED_RETRY_MS) });
    }
    // Requests of another version were dropped (loader.reset): this 404 is of the layer's version.
    // While the manifest is read, the requests of this version not started yet wait (dropped
    // from the loader's queue; the next plan after the answer asks for them, at the new version).
    if (versionGone(tileErrorStatus(error))) {
      this.checkVersion();
      if (this.versionHoldLeft() > 0) this.loader.want([]);
    }
  }

  /** Ms left of the hold on requests while the manifest is read for a 404 (0: none). */
  private versionHoldLeft(): number {
    if (!this.checkingVersion) return 0;
    const left = this.versionCheckStartedAt + VERSION_HOLD_MS - this.clock();
    return left > 0 ? Math.ceil(left) : 0;
  }

  /**
   * A tile of the layer's version is gone: reads the map's manifest, and switches to the version
   * the server has now if it differs. At most one check at a time, and one per VERSION_CHECK_MS.
   */
  private checkVersion(): void {
    const now = this.clock();
    if (this.disposed || this.outdated_ || this.checkingVersion || now < this.versionCheckAfter) return;
    this.checkingVersion = true;
    this.versionCheckStartedAt = now;
    const asked = this.manifestNow;
    const read = this.options.fetchManifest ?? (() => fetchManifest(`${this.options.tileBase}${tileManifestPath(asked.map)}`));
    void read()
      .then(
        (next) => {
          if (this.disposed || this.manifestNow !== asked) return;
          if (!isTileManifest(next) || next.map !== asked.map) throw new Error('the tile manifest is malformed');
          if (next.version !== asked.version) this.replaceManifest(next);
        },
        (error: unknown) => {
          console.warn(`raidmap: the tile manifest of ${asked.map} could not be read after a tile of version ${asked.version} was not found:`, error);
        },
      )
      .catch((error: unknown) => console.warn(`raidmap: the tile manifest of ${asked.map}:`, error))
      .finally(() => {
        this.checkingVersion = false;
        this.versionCheckAfter = this.clock() + VERSION_CHECK_MS;
        // The requests held meanwhile: planned again now (at the version the layer has now).
        this.changed = true;
        this.hooks?.onTile();
      });
  }

  /** Switches to the server's new version of the map: every drawn tile stays until its new one arrives. */
  private replaceManifest(next: TileManifest): void {
    const old = this.manifestNow;
    this.loader.reset();
    this.changed = true;
    if (!samePyramid(old, next)) {
      this.outdated_ = true;
      console.warn(`raidmap: the tiles of ${old.map} changed shape on the server (version ${old.version} → ${next.version}); reload the page to see them`);
      return;
    }
    console.info(`raidmap: the drawing of ${old.map} was replaced on the server: tiles of version ${old.version} → ${next.version}`);
    this.manifestNow = next;
    const now = this.clock();
    for (const key of this.cache.keys()) this.refresh.set(key, { attempt: 0, dueAt: now });
    for (const key of this.arrived.keys()) this.refresh.set(key, { attempt: 0, dueAt: now });
    this.hooks?.onTile();
  }

  /** Moves arrived tiles into the cache and uploads them within the budget; returns how many. */
  private admitArrived(budgetMs: number): number {
    const budget = this.uploads;
    budget.start(budgetMs);
    for (const [key, bitmap] of this.arrived) {
      if (!budget.take()) break;
      this.arrived.delete(key);
      const source = new ImageSource({ resource: bitmap, alphaMode: 'premultiplied-alpha', scaleMode: 'linear' });
      const bytes = textureBytes(bitmap.width, bitmap.height);
      const texture = new Texture({ source });
      this.hooks?.upload(texture);
      const existing = this.cache.get(key);
      if (existing) {
        // A tile fetched again (after a failure elsewhere): same sprite, new texture.
        existing.sprite.texture = texture;
        destroyTexture(existing.texture);
        this.cacheBytes += bytes - existing.bytes;
        existing.texture = texture;
        existing.bytes = bytes;
        continue;
      }
      const { floor, z, x, y } = splitNumKey(key);
      const { width, height } = this.manifestNow;
      const b = tileBounds(width, height, z, x, y);
      const sprite = new Sprite({ texture, x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY, visible: false });
      this.floors[floor].levels[z].addChild(sprite);
      this.cache.set(key, { texture, sprite, floor, bytes, lastUsed: this.frame });
      this.cacheBytes += bytes;
    }
    return budget.taken;
  }

  /** Shows the floor's planned tiles and hides the rest; only tiles whose state changes are touched. */
  private showSprites(floor: Floor, draw: TileCoord[]): void {
    const next = new Set<number>();
    for (const t of draw) {
      const key = numKey(floor.index, t.z, t.x, t.y);
      const cached = this.cache.get(key)!;
      cached.lastUsed = this.frame;
      cached.sprite.visible = true;
      next.add(key);
    }
    for (const key of floor.shown) {
      if (next.has(key)) continue;
      const cached = this.cache.get(key);
      if (cached) cached.sprite.visible = false;
    }
    floor.shown = next;
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
      this.floors[tile.floor].shown.delete(key);
      tile.sprite.destroy();
      destroyTexture(tile.texture);
      this.cache.delete(key);
      this.refresh.delete(key);
      this.cacheBytes -= tile.bytes;
    }
  }
}

/** Two manifests of one pyramid (same levels, size and floors): tile keys and places carry over. */
function samePyramid(a: TileManifest, b: TileManifest): boolean {
  return (
    a.map === b.map && a.tileSize === b.tileSize && a.minZ === b.minZ && a.maxZ === b.maxZ && a.width === b.width && a.height === b.height &&
    a.layers.length === b.layers.length && a.layers.every((layer, i) => layer === b.layers[i])
  );
}

/** The map's current manifest from the server, past the browser's cache (it is `no-cache`). */
async function fetchManifest(url: string): Promise<unknown> {
  const response = await fetch(url, { cache: 'no-cache', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

function destroyTexture(texture: Texture): void {
  const resource = texture.source.resource as { close?: () => void } | undefined;
  texture.destroy(true);
  resource?.close?.();
}

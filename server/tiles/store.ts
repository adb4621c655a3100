/**
 * The tile store: where each map's SVG comes from, its version, the prebuilt pyramid on
 * disk, and tiles rendered on demand. One store per (assetsDir, tilesDir) pair, shared by
 * the background build and the HTTP routes, so a metatile is never rendered twice at once.
 *
 * Disk layout: {tilesDir}/{map}/{version}/{layer}/{z}/{x}/{y}.webp, and
 * {tilesDir}/{map}/{version}/.complete once levels 0..PREBUILT_MAX_Z are all there.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MAPS, type MapDefinition } from '../../src/domain/maps';
import { MIN_TILE_Z, PREBUILT_MAX_Z, TILE_SIZE, maxTileZ, tileScale, type TileManifest } from '../../src/domain/tiles';
import { encodeTile, renderRegion } from './render';
import { normalizeLayer } from './normalize';
import { generateSampleSvg } from './sample-map';
import { layerSvg, parseSvg, type LayerSvg, type SvgElement } from './svg-doc';
import { METATILE, isTileInRange, levelPixelSize, metatileOf, tilePixelRect, type Metatile, type TileAddress } from './tile-math';

/** Bump when the rendering or cutting changes: every map gets a new version. */
export const PIPELINE_VERSION = 'tiles-2';
export const TILE_FORMAT = 'webp' as const;
const COMPLETE_MARKER = '.complete';

export interface TileStoreOptions {
  /** Holds maps/{map}/map.svg, the operators' real maps. */
  assetsDir: string;
  tilesDir: string;
  /** Map definitions served (default: all of src/domain/maps.ts). */
  maps?: readonly MapDefinition[];
}

export interface TileSource {
  map: MapDefinition;
  kind: 'file' | 'sample';
  /** The real SVG's path; for samples, where a copy is written for inspection. */
  path: string;
  text: string;
  version: string;
  /** Identity of the file it was read from (mtime and size), to notice a replaced file. */
  stamp: string;
  root?: SvgElement;
  /** Each layer with the others hidden (cheap: a rewrite of the source). */
  plans: Map<string, LayerSvg>;
  /** Each layer normalised for rendering (resvg's parser, on a worker thread), made on first use. */
  layers: Map<string, Promise<LayerSvg>>;
}

export type TileLookup =
  | { status: 200; body: Buffer }
  | { status: 404; message: string };

export interface PrepareMapResult {
  map: string;
  version: string;
  /** False when the version was already complete on disk. */
  built: boolean;
  ms: number;
  tilesWritten: number;
}

export function versionOf(map: MapDefinition, svgText: string): string {
  const hash = createHash('sha256');
  hash.update(PIPELINE_VERSION);
  hash.update('\0');
  hash.update(JSON.stringify({ size: map.size, layers: map.layers }));
  hash.update('\0');
  hash.update(svgText);
  return hash.digest('hex').slice(0, 12);
}

/** The layer that also draws content outside every layer: main, else the first. */
export function baseLayerOf(map: MapDefinition): string {
  return map.layers.includes('main') ? 'main' : map.layers[0];
}

export function realSvgPath(assetsDir: string, mapId: string): string {
  return path.join(assetsDir, 'maps', mapId, 'map.svg');
}

export function sampleSvgPath(tilesDir: string, mapId: string): string {
  return path.join(path.dirname(path.resolve(tilesDir)), 'sample-maps', `${mapId}.svg`);
}

async function writeAtomic(file: string, body: Buffer | string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.writeFile(tmp, body);
  await fs.rename(tmp, file);
}

/** Tiles encoded and written at once while building a level. */
const ENCODE_CONCURRENCY = 4;

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export class TileStore {
  readonly assetsDir: string;
  readonly tilesDir: string;
  private readonly maps: Map<string, MapDefinition>;
  private readonly sources = new Map<string, Promise<TileSource>>();
  private readonly inFlight = new Map<string, Promise<Map<string, Buffer>>>();
  private readonly madeDirs = new Set<string>();
  /** Metatile renders done (on demand and prebuilt): for tests and logs. */
  renders = 0;

  constructor(opts: TileStoreOptions) {
    this.assetsDir = path.resolve(opts.assetsDir);
    this.tilesDir = path.resolve(opts.tilesDir);
    this.maps = new Map((opts.maps ?? Object.values(MAPS)).map((m) => [m.id, m]));
  }

  getMap(mapId: string): MapDefinition | undefined {
    return this.maps.get(mapId);
  }

  /** The current source of a map: its real SVG when one is dropped in, else the sample. */
  async source(map: MapDefinition): Promise<TileSource> {
    const file = realSvgPath(this.assetsDir, map.id);
    const stat = await fs.stat(file).catch(() => undefined);
    const stamp = stat?.isFile() ? `${stat.mtimeMs}:${stat.size}` : 'sample';
    const cached = this.sources.get(map.id);
    if (cached) {
      const s = await cached.catch(() => undefined);
      if (s && s.stamp === stamp && s.map === map) return s;
    }
    const loading = (async (): Promise<TileSource> => {
      const text = stat?.isFile() ? await fs.readFile(file, 'utf8') : generateSampleSvg(map);
      return {
        map,
        kind: stat?.isFile() ? 'file' : 'sample',
        path: stat?.isFile() ? file : sampleSvgPath(this.tilesDir, map.id),
        text,
        version: versionOf(map, text),
        stamp,
        plans: new Map(),
        layers: new Map(),
      };
    })();
    this.sources.set(map.id, loading);
    return loading;
  }

  /** The source already loaded for a map, else loads it (tile requests skip the file check). */
  private currentSource(map: MapDefinition): Promise<TileSource> {
    return this.sources.get(map.id) ?? this.source(map);
  }

  /** One layer of the source with the other layers hidden. */
  private plan(source: TileSource, layerId: string): LayerSvg {
    let plan = source.plans.get(layerId);
    if (!plan) {
      source.root ??= parseSvg(source.text);
      plan = layerSvg(source.text, source.root, layerId, { layers: source.map.layers, baseLayer: baseLayerOf(source.map) }, source.map.size);
      source.plans.set(layerId, plan);
    }
    return plan;
  }

  /** One layer ready to render any region (normalised once per version). */
  layer(source: TileSource, layerId: string): Promise<LayerSvg> {
    let layer = source.layers.get(layerId);
    if (!layer) {
      const plan = this.plan(source, layerId);
      layer = normalizeLayer(plan, { map: source.map.id, layer: layerId });
      // The rewritten source is only needed until it is normalised.
      layer.then(() => source.plans.set(layerId, { ...plan, body: '' }), () => undefined);
      // A failure is not cached: the next request tries again.
      layer.catch(() => source.layers.delete(layerId));
      source.layers.set(layerId, layer);
    }
    return layer;
  }

  /** Layers of the map definition that the source lacks (they render empty). */
  missingLayers(source: TileSource): string[] {
    return source.map.layers.filter((id) => !this.plan(source, id).found);
  }

  async manifest(mapId: string): Promise<TileManifest | undefined> {
    const map = this.getMap(mapId);
    if (!map) return undefined;
    const source = await this.source(map);
    // A source that is not well-formed SVG fails here, with the reason, rather than tile by tile.
    source.root ??= parseSvg(source.text);
    return manifestOf(map, source.version);
  }

  private versionDir(mapId: string, version: string): string {
    return path.join(this.tilesDir, mapId, version);
  }

  tileFile(mapId: string, version: string, layer: string, t: TileAddress): string {
    return path.join(this.versionDir(mapId, version), layer, String(t.z), String(t.x), `${t.y}.${TILE_FORMAT}`);
  }

  private async ensureDir(dir: string): Promise<void> {
    if (this.madeDirs.has(dir)) return;
    await fs.mkdir(dir, { recursive: true });
    this.madeDirs.add(dir);
  }

  private async writeTile(file: string, body: Buffer): Promise<void> {
    await this.ensureDir(path.dirname(file));
    await writeAtomic(file, body);
  }

  /** Looks up a tile for the HTTP route: from disk, else rendered now (and cached on disk). */
  async tile(mapId: string, version: string, layerId: string, t: TileAddress): Promise<TileLookup> {
    const map = this.getMap(mapId);
    if (!map) return { status: 404, message: `unknown map "${mapId}"` };
    if (!map.layers.includes(layerId)) return { status: 404, message: `map "${mapId}" has no layer "${layerId}"` };
    const maxZ = maxTileZ(map);
    if (!isTileInRange(map.size.width, map.size.height, maxZ, t)) {
      return { status: 404, message: `tile ${t.z}/${t.x}/${t.y} is outside the pyramid of "${mapId}" (z ${MIN_TILE_Z}..${maxZ})` };
    }
    const source = await this.currentSource(map);
    if (source.version !== version) return { status: 404, message: `version "${version}" of "${mapId}" is not current: read manifest.json` };
    const file = this.tileFile(mapId, version, layerId, t);
    try {
      return { status: 200, body: await fs.readFile(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const tiles = await this.renderMetatile(source, layerId, metatileOf(map.size.width, map.size.height, t));
    const body = tiles.get(`${t.x}/${t.y}`);
    if (!body) throw new Error(`metatile render lost tile ${t.z}/${t.x}/${t.y}`);
    return { status: 200, body };
  }

  /** Renders one metatile, cuts and stores its tiles; concurrent callers share one render. */
  renderMetatile(source: TileSource, layerId: string, meta: Metatile): Promise<Map<string, Buffer>> {
    const key = `${source.map.id}/${source.version}/${layerId}/${meta.z}/${meta.mx}/${meta.my}`;
    let job = this.inFlight.get(key);
    if (!job) {
      job = this.doRenderMetatile(source, layerId, meta).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, job);
    }
    return job;
  }

  private async doRenderMetatile(source: TileSource, layerId: string, meta: Metatile): Promise<Map<string, Buffer>> {
    const { map } = source;
    const scale = tileScale(meta.z);
    const image = await renderRegion(
      await this.layer(source, layerId),
      { mapX: meta.rect.left / scale, mapY: meta.rect.top / scale, scale, outWidth: meta.rect.width, outHeight: meta.rect.height },
      map.size,
    );
    this.renders++;
    const out = new Map<string, Buffer>();
    for (const t of meta.tiles) {
      const r = tilePixelRect(map.size.width, map.size.height, t);
      const body = await encodeTile(image, { left: r.left - meta.rect.left, top: r.top - meta.rect.top, width: r.width, height: r.height });
      await this.writeTile(this.tileFile(map.id, source.version, layerId, t), body);
      out.set(`${t.x}/${t.y}`, body);
    }
    return out;
  }

  /**
   * Renders one pyramid level of a layer in bands one metatile high (the full width, at
   * most 1024 px tall: bounded memory, short pixel copies) and writes the tiles not yet on disk.
   */
  private async buildLevel(source: TileSource, layerId: string, z: number): Promise<number> {
    const { map } = source;
    const level = levelPixelSize(map.size.width, map.size.height, z);
    const scale = tileScale(z);
    const layer = await this.layer(source, layerId);
    const cols = Math.ceil(level.width / TILE_SIZE);
    const rows = Math.ceil(level.height / TILE_SIZE);
    const bandRows = METATILE;
    let written = 0;
    for (let row0 = 0; row0 < rows; row0 += bandRows) {
      const top = row0 * TILE_SIZE;
      const tiles: TileAddress[] = [];
      for (let y = row0; y < Math.min(rows, row0 + bandRows); y++) {
        for (let x = 0; x < cols; x++) {
          const t = { z, x, y };
          if (!(await exists(this.tileFile(map.id, source.version, layerId, t)))) tiles.push(t);
        }
      }
      if (!tiles.length) continue;
      const height = Math.min(bandRows * TILE_SIZE, level.height - top);
      const image = await renderRegion(layer, { mapX: 0, mapY: top / scale, scale, outWidth: level.width, outHeight: height }, map.size);
      this.renders++;
      // A few tiles at a time keep the thread pool busy (encoding and writing are off the event loop).
      await forEachLimit(tiles, ENCODE_CONCURRENCY, async (t) => {
        const r = tilePixelRect(map.size.width, map.size.height, t);
        await this.writeTile(this.tileFile(map.id, source.version, layerId, t), await encodeTile(image, { ...r, top: r.top - top }));
        written++;
      });
    }
    return written;
  }

  /**
   * Makes levels 0..PREBUILT_MAX_Z of every layer of a map, unless this version is
   * already complete on disk; removes the map's other versions.
   */
  async prepareMap(map: MapDefinition, onLayer?: (layerId: string) => void, signal?: AbortSignal): Promise<PrepareMapResult> {
    const started = performance.now();
    this.maps.set(map.id, map);
    const source = await this.source(map);
    const dir = this.versionDir(map.id, source.version);
    await this.removeOldVersions(map.id, source.version);
    if (await exists(path.join(dir, COMPLETE_MARKER))) {
      map.layers.forEach((id) => onLayer?.(id));
      return { map: map.id, version: source.version, built: false, ms: performance.now() - started, tilesWritten: 0 };
    }
    if (source.kind === 'sample') {
      await this.ensureDir(path.dirname(source.path));
      await writeAtomic(source.path, source.text);
    }
    let tilesWritten = 0;
    for (const layerId of map.layers) {
      for (let z = MIN_TILE_Z; z <= PREBUILT_MAX_Z; z++) {
        signal?.throwIfAborted();
        tilesWritten += await this.buildLevel(source, layerId, z);
      }
      onLayer?.(layerId);
    }
    const ms = performance.now() - started;
    await writeAtomic(
      path.join(dir, COMPLETE_MARKER),
      JSON.stringify({ map: map.id, version: source.version, source: source.kind === 'file' ? source.path : 'sample', builtAt: new Date().toISOString(), ms: Math.round(ms) }),
    );
    return { map: map.id, version: source.version, built: true, ms, tilesWritten };
  }

  private async removeOldVersions(mapId: string, keep: string): Promise<void> {
    const mapDir = path.join(this.tilesDir, mapId);
    const entries = await fs.readdir(mapDir).catch(() => [] as string[]);
    await Promise.all(
      entries.filter((e) => e !== keep).map((e) => fs.rm(path.join(mapDir, e), { recursive: true, force: true })),
    );
    for (const d of [...this.madeDirs]) if (d.startsWith(mapDir + path.sep) && !d.startsWith(path.join(mapDir, keep))) this.madeDirs.delete(d);
  }
}

export function manifestOf(map: MapDefinition, version: string): TileManifest {
  return {
    map: map.id,
    version,
    tileSize: TILE_SIZE,
    minZ: MIN_TILE_Z,
    maxZ: maxTileZ(map),
    prebuiltMaxZ: PREBUILT_MAX_Z,
    width: map.size.width,
    height: map.size.height,
    layers: [...map.layers],
    format: TILE_FORMAT,
  };
}

const stores = new Map<string, TileStore>();

/** The shared store for a pair of folders. */
export function getTileStore(opts: TileStoreOptions): TileStore {
  const key = `${path.resolve(opts.assetsDir)}\0${path.resolve(opts.tilesDir)}`;
  let store = stores.get(key);
  if (!store) {
    store = new TileStore(opts);
    stores.set(key, store);
  }
  return store;
}

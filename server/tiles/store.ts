/**
 * The tile store: where each map's SVG comes from, its version, the prebuilt pyramid on
 * disk, and tiles rendered on demand. One store per (assetsDir, tilesDir) pair, shared by
 * the background build and the HTTP routes, so a metatile is never rendered twice at once.
 *
 * Disk layout: {tilesDir}/{map}/{version}/{layer}/{z}/{x}/{y}.webp, and
 * {tilesDir}/{map}/{version}/.complete once levels 0..PREBUILT_MAX_Z are all there.
 *
 * The on-demand levels (z > PREBUILT_MAX_Z) are a cache with a size budget (TileCacheOptions,
 * TILE_CACHE_MAX_MB): past it, the least recently used on-demand tiles are deleted
 * (cache-index.ts). The prebuilt levels are never evicted. A tile request may be refused a
 * render (the route's per-address limit, render-limit.ts); `fallbackTile` then makes a
 * stand-in from the nearest cached parent tile.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MAPS, type MapDefinition } from '../../src/domain/maps';
import { MIN_TILE_Z, PREBUILT_MAX_Z, TILE_SIZE, maxTileZ, tileScale, type TileManifest } from '../../src/domain/tiles';
import sharp from 'sharp';
import { TileCacheIndex } from './cache-index';
import { encodeTile, renderRegion } from './render';
import { normalizeLayer } from './normalize';
import { readAll, renderOnce } from './render-lock';
import { generateSampleSvg } from './sample-map';
import { TileMemoryCache } from './memory-cache';
import { DEFAULT_TILE_CACHE_MAX_MB, DEFAULT_TILE_MEMORY_MB } from './settings';
import { groupName, layerSvg, matchLayers, parseSvg, sizeFallbackWarning, sourceViewBox, drawingText, type LayerMatch, type LayerSvg, type SvgElement, type ViewBox } from './svg-doc';
import {
  MAP_ART_FILE, MapArtError, defaultPlacement, layerGroupNames, outsideMapWarning, placementRect, type MapArt, type PlacementResult,
} from '../../src/domain/map-art';
import { consoleTileLog, type TileLog } from './log';
import { readMapArt } from './map-art-issues';
import { SvgSourceError } from './svg-doc';
import { unrenderedWarnings } from './unrendered';
import { METATILE, isTileInRange, levelPixelSize, metatileOf, tilePixelRect, type Metatile, type TileAddress } from './tile-math';

export { DEFAULT_TILE_CACHE_MAX_MB } from './settings';

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
  /** The on-demand cache's budget (default DEFAULT_TILE_CACHE_MAX_MB). */
  cache?: Partial<TileCacheOptions>;
  /** Where its lines go (default the console; the tiles plugin sets the server's logger). */
  log?: TileLog;
}

export interface TileCacheOptions {
  /** Bytes of on-demand tiles (levels above PREBUILT_MAX_Z) kept on disk; Infinity: no budget. */
  maxBytes: number;
  /** Bytes of the most recently served tiles (any level) kept in memory (memory-cache.ts); 0: none. */
  memoryBytes: number;
}

/** An eviction deletes down to this share of the budget, so it does not run on every render. */
const LOW_WATER = 0.9;

/** Figures of a store for metrics (GET /api/be/metrics) and logs; counters since the process started. */
export interface TileStoreStats {
  /** Metatile renders, background build and on demand. */
  renders: number;
  /** Of them, renders for requests (a tile missing from disk). */
  onDemandRenders: number;
  /** On-demand tiles this process knows on disk, and their bytes. */
  cacheFiles: number;
  cacheBytes: number;
  /** The budget (Infinity: none). */
  cacheMaxBytes: number;
  /** Tiles held in memory, their bytes, the budget, and tiles answered from memory. */
  memoryFiles: number;
  memoryBytes: number;
  memoryMaxBytes: number;
  memoryHits: number;
  /** On-demand tiles deleted to stay within the budget, and their bytes. */
  evictedFiles: number;
  evictedBytes: number;
  /** Renders refused to an address over its limit; stand-ins sent from a parent tile instead. */
  refusedRenders: number;
  fallbackTiles: number;
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
  /** Group names per layer, groups left out, placement: built in, or from map.json beside a real SVG. */
  art: MapArt;
  /** The map.json read, if any. */
  artPath?: string;
  /** Which groups draw which layer, and where the drawing lands (made on first use). */
  match?: LayerMatch;
  placement?: PlacementResult;
  /** Each layer with the others hidden (cheap: a rewrite of the source). */
  plans: Map<string, LayerSvg>;
  /** Each layer normalised for rendering (resvg's parser, on a worker thread), made on first use. */
  layers: Map<string, Promise<LayerSvg>>;
}

export type TileLookup =
  | { status: 200; body: Buffer }
  | { status: 404; message: string }
  /** Not on disk, and `mayRender` refused the render. */
  | { status: 429; retryAfterS: number };

export interface TileRequestOptions {
  /**
   * Asked before a render this request would start (not when the tile is on disk or its
   * metatile is being rendered already): `{ ok: false }` refuses it.
   */
  mayRender?: () => { ok: true } | { ok: false; retryAfterS: number };
}

export interface PrepareMapResult {
  map: string;
  version: string;
  /** False when the version was already complete on disk. */
  built: boolean;
  ms: number;
  tilesWritten: number;
}

/** What a drawing's layers and placement are made of: the map's layers and size, the group names, map.json. */
export function versionOf(map: MapDefinition, svgText: string, art: MapArt = { names: layerGroupNames(map), exclude: [] }): string {
  const hash = createHash('sha256');
  hash.update(PIPELINE_VERSION);
  hash.update('\0');
  hash.update(JSON.stringify({ size: map.size, layers: map.layers, transform: map.transform, names: art.names, exclude: art.exclude, placement: art.placement ?? null }));
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

export function mapArtPath(assetsDir: string, mapId: string): string {
  return path.join(assetsDir, 'maps', mapId, MAP_ART_FILE);
}

/** What the matching and placement of a drawing found (for logs and `npm run map:check`). */
export interface ArtReport {
  map: string;
  kind: 'file' | 'sample';
  path: string;
  artPath?: string;
  viewBox: ViewBox;
  layers: { id: string; names: string[]; foundBy: string[] }[];
  /** Layer ids no group draws. */
  missing: string[];
  /** Named groups that match no layer (drawn with the base layer). */
  unmatched: string[];
  excluded: string[];
  placement: PlacementResult;
  /** Mistakes the map builds with anyway (artWarnings). */
  warnings: ArtWarning[];
}

/** A mistake in a drawing or its map.json that the map still builds with: logged, and printed by map:check. */
export interface ArtWarning {
  /** The file it is about: the drawing, or its map.json. */
  file: 'drawing' | 'map.json';
  /** What is wrong, the field first (`exclude: no group named "Legnd"`). */
  message: string;
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/**
 * What an operator most likely got wrong without the map failing: names in `exclude` that
 * find no group or find a floor (which is drawn anyway), a drawing placed partly or wholly
 * off the map, a drawing whose box is the map's size for want of a viewBox, and markup its
 * tiles never show (unrendered.ts: scripts, linked images…).
 */
export function artWarnings(map: MapDefinition, root: SvgElement, art: MapArt, match: LayerMatch, placement: PlacementResult, text: string): ArtWarning[] {
  const warnings: ArtWarning[] = [];
  const size = sizeFallbackWarning(root, map.size);
  if (size) warnings.push({ file: 'drawing', message: size });
  for (const message of unrenderedWarnings(text, root, match)) warnings.push({ file: 'drawing', message });
  if (match.excludeNotFound.length) {
    warnings.push({ file: 'map.json', message: `exclude: no group named ${quoted(match.excludeNotFound)} (looked for as id=, inkscape:label=, data-name=, ignoring case)` });
  }
  for (const floor of match.excludeFloors) {
    warnings.push({
      file: 'map.json',
      message: `exclude: "${floor.name}" is the group of layer "${floor.layer}"; a floor cannot be left out, so it is drawn anyway (remove it from exclude, or give that layer other names with "layers")`,
    });
  }
  for (const wrapper of match.excludeHoldsFloors) {
    const layers = wrapper.layers.map((l) => `"${l}"`).join(', ');
    warnings.push({
      file: 'map.json',
      message: `exclude: "${wrapper.name}" holds the group${wrapper.layers.length > 1 ? 's' : ''} of layer${wrapper.layers.length > 1 ? 's' : ''} ${layers}; floors cannot be left out, so ${wrapper.layers.length > 1 ? 'they are' : 'it is'} drawn and only the rest of "${wrapper.name}" is left out (name the groups to leave out instead)`,
    });
  }
  // Only map.json's placement is the operator's; the reference bounds are checked to lie inside every map (map-art.test.ts).
  const field = art.placement ? `placement.${placement.from}` : `placement (the reference bounds of "${map.id}")`;
  const outside = outsideMapWarning(map, placement.rect, field);
  if (outside) warnings.push({ file: art.placement ? 'map.json' : 'drawing', message: outside });
  return warnings;
}

/**
 * Where a sample map's SVG is copied for the operator to look at: inside the tile folder the
 * operator gave (`$TILES_DIR/sample-maps/`), never beside it (the folder above TILES_DIR may
 * not be raidmap's, nor writable). The store knows only its two folders, not DATA_DIR.
 */
export function sampleSvgPath(tilesDir: string, mapId: string): string {
  return path.join(path.resolve(tilesDir), SAMPLE_MAPS_DIR, `${mapId}.svg`);
}

/** The folder of the sample maps' copies in TILES_DIR (no map id: the cache scan passes it by). */
export const SAMPLE_MAPS_DIR = 'sample-maps';

/**
 * What a visitor is told when a map's drawing cannot be shown: why in a few words, never a path
 * or a stack (docs/SERVER.md, "A 500 never shows internals"); the log has the whole reason.
 */
export function publicSourceProblem(mapId: string, err: unknown): string {
  const why =
    err instanceof MapArtError ? ': its map.json has a mistake' : err instanceof SvgSourceError ? ': its drawing cannot be read' : '';
  return `the art of map "${mapId}" cannot be shown right now${why} (the server's log says why)`;
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
  private readonly cacheIndex = new TileCacheIndex();
  private readonly memory = new TileMemoryCache(DEFAULT_TILE_MEMORY_MB * 1024 * 1024);
  private maxBytes = DEFAULT_TILE_CACHE_MAX_MB * 1024 * 1024;
  private scanned?: Promise<void>;
  private evicting?: Promise<void>;
  private readonly counts = { onDemandRenders: 0, evictedFiles: 0, evictedBytes: 0, refusedRenders: 0, fallbackTiles: 0 };
  /** Where the store's lines go (useLog). */
  log: TileLog = consoleTileLog;
  /** Per map, the failure last logged (the files' stamp and the reason): logged again only when either changes. */
  private readonly failures = new Map<string, string>();
  /** Errors already logged by `sourceFailed`: the routes do not log them again per request. */
  private readonly loggedErrors = new WeakSet<object>();

  constructor(opts: TileStoreOptions) {
    this.assetsDir = path.resolve(opts.assetsDir);
    this.tilesDir = path.resolve(opts.tilesDir);
    this.maps = new Map((opts.maps ?? Object.values(MAPS)).map((m) => [m.id, m]));
    if (opts.log) this.log = opts.log;
    if (opts.cache) this.configureCache(opts.cache);
  }

  /** Sends the store's lines to `log` from now on (the server's JSON logger). */
  useLog(log: TileLog): void {
    this.log = log;
  }

  /** True when `err` is a map's source failure the store has logged already (once per change of its files). */
  hasLogged(err: unknown): boolean {
    return typeof err === 'object' && err !== null && this.loggedErrors.has(err);
  }

  /**
   * Notes that a map's drawing or map.json cannot be used: logged with the whole reason (the
   * file's path, the field) once per change of its files or of the reason, not per request.
   */
  private async sourceFailed(map: MapDefinition, err: unknown): Promise<void> {
    if (typeof err === 'object' && err !== null) this.loggedErrors.add(err);
    // A drawing's own mistake names its file, as a map.json's does (MapArtError's message starts with its path).
    const message = err instanceof Error ? err.message : String(err);
    const reason = err instanceof SvgSourceError ? `${realSvgPath(this.assetsDir, map.id)}: ${message}` : message;
    const key = `${(await this.stampOf(map)).stamp}\0${reason}`;
    if (this.failures.get(map.id) === key) return;
    this.failures.set(map.id, key);
    this.log.error(`tiles: ${map.id}: the map's drawing cannot be used until this is fixed: ${reason}`);
  }

  /**
   * Sets the on-demand cache's budget and starts the look at what is on disk already (once,
   * in the background); evicts at once if the cache is over the new budget.
   */
  configureCache(options: Partial<TileCacheOptions>): void {
    if (options.maxBytes !== undefined) {
      if (!(options.maxBytes >= 0)) throw new Error(`tile cache budget must be ≥ 0 bytes, got ${options.maxBytes}`);
      this.maxBytes = options.maxBytes;
    }
    if (options.memoryBytes !== undefined) this.memory.resize(options.memoryBytes);
    this.scanCache();
    void this.evictIfNeeded();
  }

  /** Counters and cache size, read by the metrics module at each scrape. */
  stats(): TileStoreStats {
    return {
      renders: this.renders,
      onDemandRenders: this.counts.onDemandRenders,
      cacheFiles: this.cacheIndex.files,
      cacheBytes: this.cacheIndex.bytes,
      cacheMaxBytes: this.maxBytes,
      memoryFiles: this.memory.files,
      memoryBytes: this.memory.bytes,
      memoryMaxBytes: this.memory.budget,
      memoryHits: this.memory.hits,
      evictedFiles: this.counts.evictedFiles,
      evictedBytes: this.counts.evictedBytes,
      refusedRenders: this.counts.refusedRenders,
      fallbackTiles: this.counts.fallbackTiles,
    };
  }

  /**
   * Finds the on-demand tiles already on disk (written before this start, or by another
   * process) and adds them to the index as the least recently used, oldest file first.
   * Runs once; resolves when done (a failure is logged, the cache works on without them).
   */
  scanCache(): Promise<void> {
    this.scanned ??= (async () => {
      const found: { file: string; bytes: number; mtimeMs: number }[] = [];
      const dirs = async (dir: string) => (await fs.readdir(dir, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory()).map((d) => d.name);
      for (const mapId of await dirs(this.tilesDir)) {
        if (!this.maps.has(mapId)) continue;
        for (const version of await dirs(path.join(this.tilesDir, mapId))) {
          for (const layer of await dirs(path.join(this.tilesDir, mapId, version))) {
            for (const z of await dirs(path.join(this.tilesDir, mapId, version, layer))) {
              if (!/^\d+$/.test(z) || Number(z) <= PREBUILT_MAX_Z) continue;
              for (const x of await dirs(path.join(this.tilesDir, mapId, version, layer, z))) {
                const dir = path.join(this.tilesDir, mapId, version, layer, z, x);
                for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
                  if (!name.endsWith(`.${TILE_FORMAT}`)) continue;
                  const file = path.join(dir, name);
                  const stat = await fs.stat(file).catch(() => undefined);
                  if (stat?.isFile()) found.push({ file, bytes: stat.size, mtimeMs: stat.mtimeMs });
                }
              }
            }
          }
        }
      }
      found.sort((a, b) => a.mtimeMs - b.mtimeMs);
      this.cacheIndex.addOlder(found);
    })().catch((err: unknown) => this.log.error(`tiles: could not look through the tile cache ${this.tilesDir}: ${(err as Error).message}`));
    return this.scanned;
  }

  /**
   * Deletes the least recently used on-demand tiles while the cache is over its budget, down
   * to LOW_WATER of it. One eviction at a time; a tile used while it runs is kept in the index.
   */
  evictIfNeeded(): Promise<void> {
    if (this.cacheIndex.bytes <= this.maxBytes) return Promise.resolve();
    this.evicting ??= (async () => {
      await this.scanned;
      while (this.cacheIndex.bytes > this.maxBytes) {
        const victims = this.cacheIndex.victims(this.maxBytes * LOW_WATER);
        if (victims.length === 0) break;
        for (const file of victims) {
          const stamp = this.cacheIndex.stampOf(file);
          const bytes = this.cacheIndex.sizeOf(file) ?? 0;
          this.memory.delete(file);
          try {
            await fs.unlink(file);
            this.counts.evictedFiles++;
            this.counts.evictedBytes += bytes;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
          this.cacheIndex.remove(file, stamp);
        }
      }
    })()
      .catch((err: unknown) => this.log.error(`tiles: evicting from the tile cache failed: ${(err as Error).message}`))
      .finally(() => {
        this.evicting = undefined;
      });
    return this.evicting;
  }

  /** Notes an on-demand tile as just used (served or written). */
  private used(file: string, t: TileAddress, bytes: number): void {
    if (t.z <= PREBUILT_MAX_Z) return;
    void this.scanCache();
    this.cacheIndex.touch(file, bytes);
  }

  getMap(mapId: string): MapDefinition | undefined {
    return this.maps.get(mapId);
  }

  /** The identity of a map's files now (mtime and size of the drawing and its map.json; 'sample' without a drawing). */
  private async stampOf(map: MapDefinition) {
    const file = realSvgPath(this.assetsDir, map.id);
    const stat = await fs.stat(file).catch(() => undefined);
    const artFile = mapArtPath(this.assetsDir, map.id);
    const artStat = stat?.isFile() ? await fs.stat(artFile).catch(() => undefined) : undefined;
    const stamp = stat?.isFile() ? `${stat.mtimeMs}:${stat.size}${artStat ? `+${artStat.mtimeMs}:${artStat.size}` : ''}` : 'sample';
    return { file, stat, artFile, artStat, stamp };
  }

  /** The current source of a map: its real SVG when one is dropped in, else the sample. */
  async source(map: MapDefinition): Promise<TileSource> {
    const { file, stat, artFile, artStat, stamp } = await this.stampOf(map);
    const cached = this.sources.get(map.id);
    if (cached) {
      const s = await cached.catch(() => undefined);
      if (s && s.stamp === stamp && s.map === map) return s;
    }
    const loading = (async (): Promise<TileSource> => {
      const text = stat?.isFile() ? drawingText(await fs.readFile(file)) : generateSampleSvg(map);
      // A bad map.json fails the map with a message naming the file and the field (MapArtError).
      const artText = artStat ? await fs.readFile(artFile, 'utf8') : undefined;
      const art = readMapArt(map, artText, artFile);
      return {
        map,
        kind: stat?.isFile() ? 'file' : 'sample',
        path: stat?.isFile() ? file : sampleSvgPath(this.tilesDir, map.id),
        text,
        version: versionOf(map, text, art),
        stamp,
        art,
        artPath: artText !== undefined ? artFile : undefined,
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

  /** Which groups draw which layer, and where the drawing lands on the map (once per source). */
  private matched(source: TileSource): { match: LayerMatch; placement: PlacementResult } {
    source.root ??= parseSvg(source.text);
    source.match ??= matchLayers(source.root, source.art.names, source.art.exclude);
    source.placement ??= placementRect(
      source.map,
      sourceViewBox(source.root, source.map.size),
      source.art.placement ?? defaultPlacement(source.map.id, source.match.communityNamed),
      source.artPath,
    );
    return { match: source.match, placement: source.placement };
  }

  /** One layer of the source with the other layers hidden. */
  private plan(source: TileSource, layerId: string): LayerSvg {
    let plan = source.plans.get(layerId);
    if (!plan) {
      const { match, placement } = this.matched(source);
      plan = layerSvg(
        source.text,
        source.root!,
        layerId,
        { layers: source.map.layers, baseLayer: baseLayerOf(source.map), match, place: placement.rect },
        source.map.size,
      );
      source.plans.set(layerId, plan);
    }
    return plan;
  }

  /** What matching and placement found in a source. */
  artReport(source: TileSource): ArtReport {
    const { match, placement } = this.matched(source);
    const layers = source.map.layers.map((id) => ({ id, names: source.art.names[id] ?? [id], foundBy: match.foundBy.get(id) ?? [] }));
    return {
      map: source.map.id,
      kind: source.kind,
      path: source.path,
      artPath: source.artPath,
      viewBox: sourceViewBox(source.root!, source.map.size),
      layers,
      missing: layers.filter((l) => l.foundBy.length === 0).map((l) => l.id),
      unmatched: match.unmatched,
      excluded: [...new Set(match.excluded.map((el) => groupName(el) ?? `<${el.name}>`))],
      placement,
      warnings: artWarnings(source.map, source.root!, source.art, match, placement, source.text),
    };
  }

  private readonly reported = new Set<string>();

  /**
   * Logs, once per version of a map's drawing, the layers it lacks (by the group names
   * looked for), the groups that match no layer (by name) and the art's warnings (each
   * naming the file it is about). Samples are not reported.
   */
  reportArt(source: TileSource, log: TileLog = this.log): void {
    const key = `${source.map.id}/${source.version}`;
    if (source.kind !== 'file' || this.reported.has(key)) return;
    // Noted as reported only once the report is made: art that cannot be read (a bad
    // viewBox, an empty placement) throws here on every manifest request, not the first only.
    const r = this.artReport(source);
    this.reported.add(key);
    const rect = r.placement.rect;
    log.info(
      `tiles: ${r.map}: ${r.path}: layers ${r.layers.filter((l) => l.foundBy.length).map((l) => `${l.id}=${l.foundBy.join('+')}`).join(', ') || 'none'}; ` +
        `placed by ${r.placement.from} at ${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}×${Math.round(rect.height)} map px`,
    );
    for (const l of r.layers.filter((x) => x.foundBy.length === 0)) {
      log.warn(`tiles: ${r.map}: ${r.path} has no group for layer "${l.id}" (looked for ${l.names.map((n) => `"${n}"`).join(', ')} as id=, inkscape:label=, data-name=); its tiles are empty`);
    }
    for (const name of r.unmatched) {
      log.warn(`tiles: ${r.map}: group "${name}" of ${r.path} matches no layer; drawn with the base layer "${baseLayerOf(source.map)}" (leave it out with "exclude" in ${MAP_ART_FILE})`);
    }
    for (const w of r.warnings) log.warn(`tiles: ${r.map}: ${w.file === 'map.json' ? r.artPath ?? MAP_ART_FILE : r.path}: ${w.message}`);
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
    const { match } = this.matched(source);
    return source.map.layers.filter((id) => !match.groups.get(id)?.length);
  }

  async manifest(mapId: string): Promise<TileManifest | undefined> {
    const map = this.getMap(mapId);
    if (!map) return undefined;
    return manifestOf(map, (await this.checkedSource(map)).version);
  }

  /**
   * The current source, read through and its art reported: a drawing that is not well-formed
   * SVG or a map.json with a mistake fails here, with the reason, rather than tile by tile. The
   * failure is logged once per change of the files (sourceFailed) and thrown as it is.
   */
  async checkedSource(map: MapDefinition): Promise<TileSource> {
    try {
      const source = await this.source(map);
      source.root ??= parseSvg(source.text);
      this.reportArt(source);
      this.failures.delete(map.id);
      return source;
    } catch (err) {
      await this.sourceFailed(map, err);
      throw err;
    }
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

  /**
   * Looks up a tile for the HTTP route: from disk, else rendered now (and cached on disk),
   * unless `options.mayRender` refuses the render (status 429).
   */
  async tile(mapId: string, version: string, layerId: string, t: TileAddress, options: TileRequestOptions = {}): Promise<TileLookup> {
    const map = this.getMap(mapId);
    if (!map) return { status: 404, message: `unknown map "${mapId}"` };
    if (!map.layers.includes(layerId)) return { status: 404, message: `map "${mapId}" has no layer "${layerId}"` };
    const maxZ = maxTileZ(map);
    if (!isTileInRange(map.size.width, map.size.height, maxZ, t)) {
      return { status: 404, message: `tile ${t.z}/${t.x}/${t.y} is outside the pyramid of "${mapId}" (z ${MIN_TILE_Z}..${maxZ})` };
    }
    const source = await this.currentSource(map).catch(async (err: unknown) => {
      await this.sourceFailed(map, err);
      throw err;
    });
    if (source.version !== version) return { status: 404, message: `version "${version}" of "${mapId}" is not current: read manifest.json` };
    const file = this.tileFile(mapId, version, layerId, t);
    const held = this.memory.get(file);
    if (held) {
      this.used(file, t, held.length);
      return { status: 200, body: held };
    }
    try {
      const body = await fs.readFile(file);
      this.memory.set(file, body);
      this.used(file, t, body.length);
      return { status: 200, body };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const meta = metatileOf(map.size.width, map.size.height, t);
    if (options.mayRender && !this.inFlight.has(this.metatileKey(source, layerId, meta))) {
      const permit = options.mayRender();
      if (!permit.ok) {
        this.counts.refusedRenders++;
        return { status: 429, retryAfterS: permit.retryAfterS };
      }
    }
    const tiles = await this.renderMetatile(source, layerId, meta, true);
    const body = tiles.get(`${t.x}/${t.y}`);
    if (!body) throw new Error(`metatile render lost tile ${t.z}/${t.x}/${t.y}`);
    this.memory.set(file, body);
    return { status: 200, body };
  }

  private metatileKey(source: TileSource, layerId: string, meta: Metatile): string {
    return `${source.map.id}/${source.version}/${layerId}/${meta.z}/${meta.mx}/${meta.my}`;
  }

  /**
   * Renders one metatile, cuts and stores its tiles; concurrent callers share one render.
   * `onDemand`: for a request (counted in `stats().onDemandRenders`).
   */
  renderMetatile(source: TileSource, layerId: string, meta: Metatile, onDemand = false): Promise<Map<string, Buffer>> {
    const key = this.metatileKey(source, layerId, meta);
    let job = this.inFlight.get(key);
    if (!job) {
      if (onDemand) this.counts.onDemandRenders++;
      // Another server process on this tile folder may be rendering it: wait and read its tiles (render-lock.ts).
      job = renderOnce(this.metatileLockFile(source, layerId, meta), {
        reuse: () => this.readMetatile(source, layerId, meta),
        render: () => this.doRenderMetatile(source, layerId, meta),
      }).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, job);
      // Over the budget after writing: delete the least recently used on-demand tiles.
      job.then(() => this.evictIfNeeded(), () => undefined);
    }
    return job;
  }

  /** The lock file of a metatile's render (render-lock.ts), beside its version's tiles. */
  private metatileLockFile(source: TileSource, layerId: string, meta: Metatile): string {
    return path.join(this.versionDir(source.map.id, source.version), '.locks', `${layerId}-${meta.z}-${meta.mx}-${meta.my}.lock`);
  }

  /** A metatile's tiles as another process left them on disk, or undefined while any is missing. */
  private async readMetatile(source: TileSource, layerId: string, meta: Metatile): Promise<Map<string, Buffer> | undefined> {
    const files = meta.tiles.map((t) => this.tileFile(source.map.id, source.version, layerId, t));
    const bodies = await readAll(files);
    if (!bodies) return undefined;
    const out = new Map<string, Buffer>();
    meta.tiles.forEach((t, i) => {
      this.used(files[i], t, bodies[i].length);
      out.set(`${t.x}/${t.y}`, bodies[i]);
    });
    return out;
  }

  /**
   * A stand-in for a tile that may not be rendered now: the nearest ancestor tile on disk
   * (parent, grandparent, … down to level 0), the part over this tile cut out and scaled up
   * to its size. Undefined when no ancestor is on disk.
   */
  async fallbackTile(mapId: string, version: string, layerId: string, t: TileAddress): Promise<{ body: Buffer; from: TileAddress } | undefined> {
    const map = this.getMap(mapId);
    if (!map) return undefined;
    const { width, height } = map.size;
    const child = tilePixelRect(width, height, t);
    for (let k = 1; t.z - k >= MIN_TILE_Z; k++) {
      const parent = { z: t.z - k, x: Math.floor(t.x / 2 ** k), y: Math.floor(t.y / 2 ** k) };
      const file = this.tileFile(mapId, version, layerId, parent);
      let bytes: Buffer;
      try {
        bytes = await fs.readFile(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        continue;
      }
      this.used(file, parent, bytes.length);
      const p = tilePixelRect(width, height, parent);
      const f = 2 ** k;
      // The child's pixels in the parent tile's own pixels, widened to whole pixels.
      const left = Math.min(p.width - 1, Math.floor(child.left / f - p.left));
      const top = Math.min(p.height - 1, Math.floor(child.top / f - p.top));
      const right = Math.max(left + 1, Math.min(p.width, Math.ceil((child.left + child.width) / f - p.left)));
      const bottom = Math.max(top + 1, Math.min(p.height, Math.ceil((child.top + child.height) / f - p.top)));
      const body = await sharp(bytes)
        .extract({ left, top, width: right - left, height: bottom - top })
        .resize(child.width, child.height, { fit: 'fill', kernel: 'cubic' })
        .webp({ quality: 80, alphaQuality: 90, effort: 1 })
        .toBuffer();
      this.counts.fallbackTiles++;
      return { body, from: parent };
    }
    return undefined;
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
      const file = this.tileFile(map.id, source.version, layerId, t);
      await this.writeTile(file, body);
      this.used(file, t, body.length);
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
      // A copy to look at, not needed to build: a folder that cannot take it costs a warning only.
      try {
        await this.ensureDir(path.dirname(source.path));
        await writeAtomic(source.path, source.text);
      } catch (err) {
        this.log.warn(`tiles: ${map.id}: could not leave a copy of the sample map at ${source.path}: ${(err as Error).message}`);
      }
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
    for (const e of entries) {
      if (e === keep) continue;
      this.cacheIndex.removeUnder(path.join(mapDir, e) + path.sep);
      this.memory.deleteUnder(path.join(mapDir, e) + path.sep);
    }
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

/** The shared store for a pair of folders (`opts.cache`, when given, sets its budget). */
export function getTileStore(opts: TileStoreOptions): TileStore {
  const key = `${path.resolve(opts.assetsDir)}\0${path.resolve(opts.tilesDir)}`;
  let store = stores.get(key);
  if (!store) {
    store = new TileStore(opts);
    stores.set(key, store);
  } else if (opts.cache) {
    store.configureCache(opts.cache);
  }
  return store;
}

/**
 * Checks an operator's map drawing before it is deployed (docs/MAP-ART.md):
 *   npm run map:check -- <map> [--svg FILE] [--json FILE] [--out DIR] [--tiles DIR] [--width PX]
 *
 * Prints the layers found (by group name) and missing, the groups that match no layer, the
 * placement on the map, the warnings (mistakes the map builds with anyway), the prebuilt
 * tile count and time, and writes one preview PNG per layer (`<out>/<map>-<layer>.png`)
 * with the map's markers of that level drawn on it.
 *
 * The drawing is `$ASSETS_DIR/maps/<map>/map.svg` (ASSETS_DIR default ./assets) with its
 * `map.json`, or --svg FILE (with --json FILE, else the map.json beside FILE). Tiles are
 * rendered into a temporary folder that is removed afterwards (--tiles DIR keeps them
 * there instead; the server's own tile folder is never touched). Markers come from the
 * server's database (DATA_DIR / DATABASE_URL, read only), else the seeded sample markers.
 *
 * Exit status: 0 checked (missing layers and other warnings included), 1 unreadable or
 * invalid drawing or map.json, 2 usage error.
 */
import { promises as fs, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { MAP_ART_FILE, MapArtError } from '../src/domain/map-art';
import { MAP_IDS, MAPS, isMapId, type MapDefinition } from '../src/domain/maps';
import type { Marker } from '../src/domain/marker';
import { loadConfig } from '../server/config';
import { createRepositories, openDatabase } from '../server/db';
import { sampleItems } from '../server/seed/items';
import { sampleMarkers } from '../server/seed/markers';
import { sampleQuests } from '../server/seed/quests';
import { disposeRenderPool } from '../server/tiles/render-pool';
import { renderRegion } from '../server/tiles/render';
import { TileStore, mapArtPath, realSvgPath, type ArtReport } from '../server/tiles/store';
import { SvgSourceError, drawingText } from '../server/tiles/svg-doc';

const USAGE = `usage: npm run map:check -- <map> [--svg FILE] [--json FILE] [--out DIR] [--tiles DIR] [--width PX]
  <map>        one of ${MAP_IDS.join(', ')}
  --svg FILE   the drawing (default $ASSETS_DIR/maps/<map>/map.svg, ASSETS_DIR default ./assets)
  --json FILE  its ${MAP_ART_FILE} (default: the one beside the drawing, if any)
  --out DIR    where the previews go (default ./map-check)
  --tiles DIR  keep the rendered tiles there (default: a temporary folder, removed)
  --width PX   preview width (default 1024)`;

/** How the render pool words resvg refusing a document (render-pool.ts). */
const RESVG_UNREADABLE = /^resvg could not read /;

export class UsageError extends Error {}
export class CheckError extends Error {}

export interface CheckOptions {
  map: MapDefinition;
  svg: string;
  json?: string;
  out: string;
  tiles?: string;
  width: number;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CheckOptions {
  const args = [...argv];
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === '-h' || a === '--help') throw new UsageError('');
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2);
      if (!['svg', 'json', 'out', 'tiles', 'width'].includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = inline ?? args.shift();
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      flags[name] = value;
    } else positional.push(a);
  }
  if (positional.length !== 1) throw new UsageError(positional.length ? `one map at a time, got ${positional.join(' ')}` : 'which map?');
  const id = positional[0];
  if (!isMapId(id)) throw new UsageError(`unknown map "${id}"`);
  const width = flags.width === undefined ? 1024 : Number(flags.width);
  if (!Number.isInteger(width) || width < 64 || width > 8192) throw new UsageError(`--width must be a whole number from 64 to 8192, got ${flags.width}`);
  const assetsDir = path.resolve(env.ASSETS_DIR?.trim() || 'assets');
  const svg = path.resolve(flags.svg ?? realSvgPath(assetsDir, id));
  const besideJson = path.join(path.dirname(svg), MAP_ART_FILE);
  return {
    map: MAPS[id],
    svg,
    json: flags.json ? path.resolve(flags.json) : existsSync(besideJson) ? besideJson : undefined,
    out: path.resolve(flags.out ?? 'map-check'),
    tiles: flags.tiles ? path.resolve(flags.tiles) : undefined,
    width,
  };
}

/** The markers of a map: from the server's database when it has some, else the seed's samples. */
export async function loadMarkers(map: MapDefinition, env: NodeJS.ProcessEnv = process.env): Promise<{ markers: Marker[]; from: string }> {
  try {
    const config = loadConfig(env);
    // Never create a database here: only read one that exists.
    if (config.databaseUrl || existsSync(config.sqliteFile)) {
      const db = openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl, pgSchema: config.databaseSchema } : { sqliteFile: config.sqliteFile });
      try {
        const markers = await createRepositories(db).markers.listByMap(map.id);
        if (markers.length) return { markers, from: `the database (${config.databaseUrl ? 'PostgreSQL' : config.sqliteFile})` };
      } finally {
        await db.close();
      }
    }
  } catch (err) {
    console.warn(`markers: could not read the database (${(err as Error).message}); using the sample markers`);
  }
  const count = Number(env.MARKERS_PER_MAP) > 0 ? Number(env.MARKERS_PER_MAP) : 320;
  return { markers: sampleMarkers({ map, count, quests: sampleQuests(), items: sampleItems() }), from: 'the seed (no markers in the database)' };
}

/** The level whose own layer `layerId` is (main: level 1; levelN: N; the underground layer: its level). */
export function levelOfLayer(map: MapDefinition, layerId: string): number | undefined {
  return map.levels.find((l) => l.visible[l.visible.length - 1] === layerId)?.num;
}

const fmt = (v: number) => String(Math.round(v * 10) / 10);

/**
 * The report's lines. `files` names the drawing and its map.json as the operator gave them
 * (the store reads copies in a temporary folder).
 */
export function describeReport(r: ArtReport, map: MapDefinition, files: { drawing: string; art?: string } = { drawing: r.path, art: r.artPath }): string[] {
  const vb = r.viewBox;
  const lines = [
    `drawing: viewBox ${fmt(vb.x)} ${fmt(vb.y)} ${fmt(vb.width)} ${fmt(vb.height)} (aspect ${(vb.width / vb.height).toFixed(3)}); map ${map.size.width}×${map.size.height} px (aspect ${(map.size.width / map.size.height).toFixed(3)})`,
    `layers found: ${r.layers.filter((l) => l.foundBy.length).length} of ${r.layers.length}`,
  ];
  for (const l of r.layers.filter((x) => x.foundBy.length)) lines.push(`  ${l.id.padEnd(12)} ${l.foundBy.map((n) => `"${n}"`).join(' + ')}`);
  if (r.missing.length) {
    lines.push(`layers missing: ${r.missing.length} (their tiles are empty)`);
    for (const l of r.layers.filter((x) => !x.foundBy.length)) lines.push(`  ${l.id.padEnd(12)} looked for ${l.names.map((n) => `"${n}"`).join(', ')}`);
  } else lines.push('layers missing: none');
  lines.push(`groups matching no layer (drawn with the base layer): ${r.unmatched.length ? r.unmatched.map((n) => `"${n}"`).join(', ') : 'none'}`);
  if (r.excluded.length) lines.push(`groups left out (${MAP_ART_FILE} exclude): ${r.excluded.map((n) => `"${n}"`).join(', ')}`);
  const p = r.placement;
  const rect = `x ${fmt(p.rect.x)}, y ${fmt(p.rect.y)}, ${fmt(p.rect.width)}×${fmt(p.rect.height)} map px`;
  const asked = `x ${fmt(p.target.x)}, y ${fmt(p.target.y)}, ${fmt(p.target.width)}×${fmt(p.target.height)}`;
  const how = p.from === 'bounds' ? 'by game bounds' : p.from === 'rect' ? 'by a map-pixel rectangle' : 'fitted into the whole map';
  lines.push(`placement: ${how} → ${rect} (asked ${asked}; aspect kept)`);
  for (const w of r.warnings) lines.push(`warning: ${w.file === 'map.json' ? files.art ?? MAP_ART_FILE : files.drawing}: ${w.message}`);
  return lines;
}

async function preview(
  store: TileStore,
  source: Awaited<ReturnType<TileStore['source']>>,
  layerId: string,
  opts: CheckOptions,
  markers: Marker[],
): Promise<{ file: string; markers: number; width: number; height: number }> {
  const { map } = opts;
  const scale = opts.width / map.size.width;
  const width = opts.width;
  const height = Math.round(map.size.height * scale);
  const layer = await store.layer(source, layerId);
  const image = await renderRegion(layer, { mapX: 0, mapY: 0, scale, outWidth: width, outHeight: height }, map.size);
  const level = levelOfLayer(map, layerId);
  const shown = markers.filter((m) => m.level === level);
  const p = source.placement!.rect;
  const overlay = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect x="${p.x * scale}" y="${p.y * scale}" width="${p.width * scale}" height="${p.height * scale}" fill="none" stroke="#ffd000" stroke-width="1" stroke-dasharray="6 4"/>` +
    shown.map((m) => `<circle cx="${(m.geometry.x * scale).toFixed(2)}" cy="${(m.geometry.y * scale).toFixed(2)}" r="5" fill="none" stroke="#00e0ff" stroke-width="2"/>`).join('') +
    '</svg>';
  const file = path.join(opts.out, `${map.id}-${layerId}.png`);
  await sharp({ create: { width, height, channels: 4, background: { r: 32, g: 32, b: 36, alpha: 1 } } })
    .composite([
      { input: await sharp(image.pixels, { raw: { width, height, channels: 4, premultiplied: true } }).png().toBuffer() },
      { input: Buffer.from(overlay) },
    ])
    .png()
    .toFile(file);
  return { file, markers: shown.length, width, height };
}

export async function check(opts: CheckOptions, log: (line: string) => void = console.log): Promise<void> {
  const { map } = opts;
  let svgBytes: Buffer;
  try {
    svgBytes = await fs.readFile(opts.svg);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new CheckError(`no drawing at ${opts.svg}: map "${map.id}" is drawn from the generated sample map until one is put there (or give one with --svg FILE)`);
    }
    throw new CheckError(`cannot read the drawing ${opts.svg}: ${code ?? (err as Error).message}`);
  }
  let svgText: string;
  try {
    svgText = drawingText(svgBytes);
  } catch (err) {
    throw new CheckError(`${opts.svg}: not a readable SVG: ${(err as Error).message}`);
  }
  let jsonText: string | undefined;
  if (opts.json) {
    try {
      jsonText = await fs.readFile(opts.json, 'utf8');
    } catch (err) {
      throw new CheckError(`cannot read ${opts.json}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  // The store reads {assets}/maps/<map>/map.svg and map.json: a temporary assets folder holds copies.
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'raidmap-map-check-'));
  try {
    const assetsDir = path.join(work, 'assets');
    await fs.mkdir(path.dirname(realSvgPath(assetsDir, map.id)), { recursive: true });
    await fs.writeFile(realSvgPath(assetsDir, map.id), svgText);
    if (jsonText !== undefined) await fs.writeFile(mapArtPath(assetsDir, map.id), jsonText);
    const tilesDir = opts.tiles ?? path.join(work, 'tiles');
    const store = new TileStore({ assetsDir, tilesDir, maps: [map] });
    log(`map:check ${map.id}: ${opts.svg} (${Math.round(Buffer.byteLength(svgText) / 1024)} KB); ${MAP_ART_FILE}: ${opts.json ?? 'none'}`);
    let report: ArtReport;
    let source: Awaited<ReturnType<TileStore['source']>>;
    try {
      source = await store.source(map);
      report = store.artReport(source);
    } catch (err) {
      if (err instanceof MapArtError || err instanceof SvgSourceError) {
        throw new CheckError(err instanceof SvgSourceError ? `${opts.svg}: not a readable SVG: ${err.message}` : err.message.replace(mapArtPath(assetsDir, map.id), opts.json ?? MAP_ART_FILE));
      }
      throw err;
    }
    describeReport(report, map, { drawing: opts.svg, art: opts.json }).forEach((l) => log(l));

    let built: Awaited<ReturnType<TileStore['prepareMap']>>;
    try {
      built = await store.prepareMap(map);
    } catch (err) {
      // The scanner reads markup only; resvg also refuses what is no well-formed XML (an
      // undeclared entity such as &nbsp;, a duplicate attribute): the same one-line message.
      if (err instanceof Error && RESVG_UNREADABLE.test(err.message)) throw new CheckError(`${opts.svg}: not a readable SVG: ${err.message.split('\n')[0]}`);
      throw err;
    }
    log(`tiles: ${built.tilesWritten} tiles (levels 0–3 of ${map.layers.length} layers) in ${(built.ms / 1000).toFixed(1)} s → ${opts.tiles ? tilesDir : 'a temporary folder (removed)'}`);

    const { markers, from } = await loadMarkers(map);
    log(`markers: ${markers.length} from ${from}`);
    await fs.mkdir(opts.out, { recursive: true });
    for (const layerId of map.layers) {
      const p = await preview(store, source, layerId, opts, markers);
      log(`preview: ${p.file} (${p.width}×${p.height} px, layer ${layerId}, ${p.markers} markers of level ${levelOfLayer(map, layerId)})`);
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  let opts: CheckOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) console.error(`map:check: ${err.message}`);
      console.error(USAGE);
      return 2;
    }
    throw err;
  }
  try {
    await check(opts);
    return 0;
  } catch (err) {
    console.error(`map:check: ${err instanceof CheckError ? err.message : (err as Error).stack ?? String(err)}`);
    return 1;
  } finally {
    await disposeRenderPool();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}

/**
 * Writes the generated sample SVG of every map (or of the ids given) for inspection:
 *   npm run sample-maps -- [--out dir] [--png] [map ...]      (default out: data/sample-maps)
 * --png also writes {map}.png: every layer side by side at 1/8 scale (transparent areas
 * of upper floors shown magenta), drawn by the tile pipeline's renderer.
 * The tile pipeline calls the generator itself; these files are only for looking at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { MAPS, MAP_IDS, isMapId, type MapDefinition } from '../src/domain/maps';
import { disposeNormalizer, normalizeLayer } from '../server/tiles/normalize';
import { renderRegion } from '../server/tiles/render';
import { generateSampleSvg } from '../server/tiles/sample-map';
import { baseLayerOf } from '../server/tiles/store';
import { layerSvg, parseSvg } from '../server/tiles/svg-doc';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const png = args.includes('--png');
const outDir = path.resolve(outAt >= 0 ? args[outAt + 1] ?? '' : path.join(process.env.DATA_DIR ?? 'data', 'sample-maps'));
const ids = args.filter((a, i) => a !== '--png' && (outAt < 0 || (i !== outAt && i !== outAt + 1)));
const unknown = ids.filter((id) => !isMapId(id));
if (unknown.length) {
  console.error(`unknown map id ${unknown.join(', ')}; known: ${MAP_IDS.join(', ')}`);
  process.exit(2);
}

async function contactSheet(map: MapDefinition, svg: string, file: string): Promise<void> {
  const scale = 1 / 8;
  const width = Math.ceil(map.size.width * scale), height = Math.ceil(map.size.height * scale), gap = 12;
  const root = parseSvg(svg);
  const tiles = [];
  for (const [i, layerId] of map.layers.entries()) {
    const layer = await normalizeLayer(layerSvg(svg, root, layerId, { layers: map.layers, baseLayer: baseLayerOf(map) }, map.size));
    const img = await renderRegion(layer, { mapX: 0, mapY: 0, scale, outWidth: width, outHeight: height }, map.size);
    const input = await sharp(img.pixels, { raw: { width, height, channels: 4, premultiplied: true } }).flatten({ background: '#ff00ff' }).png().toBuffer();
    tiles.push({ input, left: i * (width + gap), top: 0 });
  }
  await sharp({ create: { width: map.layers.length * (width + gap) - gap, height, channels: 3, background: '#ffffff' } }).composite(tiles).png().toFile(file);
}

mkdirSync(outDir, { recursive: true });
for (const id of ids.length ? ids.filter(isMapId) : MAP_IDS) {
  const started = performance.now();
  const svg = generateSampleSvg(MAPS[id]);
  const file = path.join(outDir, `${id}.svg`);
  writeFileSync(file, svg);
  console.log(`${file}  ${(svg.length / 1024).toFixed(0)} KB  ${(performance.now() - started).toFixed(0)} ms`);
  if (png) {
    const sheet = path.join(outDir, `${id}.png`);
    await contactSheet(MAPS[id], svg, sheet);
    console.log(`${sheet}  (layers: ${MAPS[id].layers.join(', ')})`);
  }
}
await disposeNormalizer();

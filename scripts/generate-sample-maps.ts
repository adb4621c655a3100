/**
 * Writes the generated sample SVG of every map (or of the ids given) for inspection:
 *   npm run sample-maps -- [--out dir] [map ...]      (default out: data/sample-maps)
 * The tile pipeline calls the generator itself; these files are only for looking at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAPS, MAP_IDS, isMapId } from '../src/domain/maps';
import { generateSampleSvg } from '../server/tiles/sample-map';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const outDir = path.resolve(outAt >= 0 ? args[outAt + 1] ?? '' : path.join(process.env.DATA_DIR ?? 'data', 'sample-maps'));
const ids = args.filter((_, i) => outAt < 0 || (i !== outAt && i !== outAt + 1));
const unknown = ids.filter((id) => !isMapId(id));
if (unknown.length) {
  console.error(`unknown map id ${unknown.join(', ')}; known: ${MAP_IDS.join(', ')}`);
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
for (const id of ids.length ? ids.filter(isMapId) : MAP_IDS) {
  const started = performance.now();
  const svg = generateSampleSvg(MAPS[id]);
  const file = path.join(outDir, `${id}.svg`);
  writeFileSync(file, svg);
  console.log(`${file}  ${(svg.length / 1024).toFixed(0)} KB  ${(performance.now() - started).toFixed(0)} ms`);
}

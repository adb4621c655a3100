/**
 * Pre-builds the tile pyramids (levels 0..PREBUILT_MAX_Z of every layer) ahead of the
 * server, two maps at a time, and reports the time taken. Incremental: a map whose version is complete on disk
 * is skipped.
 *   npm run tiles -- [map ...]
 * Env: DATA_DIR (./data), TILES_DIR ($DATA_DIR/tiles), ASSETS_DIR (./assets).
 */
import path from 'node:path';
import { MAPS, MAP_IDS, isMapId } from '../src/domain/maps';
import { prepareAllTiles, type TileLog } from '../server/tiles';
import { tilesProgress } from './tiles-progress';

const ids = process.argv.slice(2);
const unknown = ids.filter((id) => !isMapId(id));
if (unknown.length) {
  console.error(`unknown map id ${unknown.join(', ')}; known: ${MAP_IDS.join(', ')}`);
  process.exit(2);
}
const dataDir = process.env.DATA_DIR ?? 'data';
const tilesDir = path.resolve(process.env.TILES_DIR ?? path.join(dataDir, 'tiles'));
const assetsDir = path.resolve(process.env.ASSETS_DIR ?? 'assets');
const maps = (ids.length ? ids.filter(isMapId) : [...MAP_IDS]).map((id) => MAPS[id]);

// In place on a terminal; whole lines in a log or a pipe (tiles-progress.ts).
const progress = tilesProgress(process.stdout);
const line: TileLog = {
  info: (m) => (progress.finish(), console.log(m)),
  warn: (m) => (progress.finish(), console.warn(m)),
  error: (m) => (progress.finish(), console.error(m)),
};
const result = await prepareAllTiles({
  assetsDir,
  tilesDir,
  maps,
  concurrency: 2,
  log: line,
  onProgress: (done, total, failed) => progress.update(done, total, failed),
});
progress.finish();
for (const m of result.maps) {
  console.log(`${m.map.padEnd(12)} ${m.version}  ${m.built ? `built ${m.tilesWritten} tiles in ${(m.ms / 1000).toFixed(1)} s` : 'up to date'}`);
}
for (const f of result.failed) console.error(`${f.map.padEnd(12)} FAILED: ${f.error}`);
console.log(`all maps: ${(result.ms / 1000).toFixed(1)} s → ${tilesDir}`);
process.exit(result.failed.length ? 1 : 0);

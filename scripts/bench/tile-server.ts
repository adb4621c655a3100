/**
 * `npx tsx scripts/bench/tile-server.ts [--rounds 300] [--tiles DIR] [--memory-mb 64]`: the
 * server's CPU per tile request (issue 11; docs/PERFORMANCE.md, "Twelfth session"). Starts the
 * real server on customs, then asks for the tiles of customs's first view at 1280 × 800 (54),
 * `--rounds` times over six keep-alive connections (a browser's), and reads the server's CPU
 * from /proc (every thread of its process, libuv's file-system pool included). Prints the CPU
 * per request for each third of the rounds: the first third warms the server up (and, with
 * memory on, fills it). `--memory-mb 0` turns the hot-tile memory off (TILE_MEMORY_MB).
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { freshDataDir, startServer } from '../../e2e/support/server';
import { MAPS } from '../../src/domain/maps';
import type { TileManifest } from '../../src/domain/tiles';
import { firstViewTileUrls } from '../../src/engine/early-tiles';
import { parseCommandLine } from './options';
import { threadTicks, ticksDeltaMs } from './process-cpu';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: tile-server.ts [--rounds 300] [--tiles DIR] [--memory-mb 64]';
const { values: args } = parseCommandLine(
  () => parseArgs({ options: { rounds: { type: 'string', default: '300' }, tiles: { type: 'string' }, 'memory-mb': { type: 'string' } } }),
  USAGE,
);
const rounds = Number(args.rounds);
if (!(rounds >= 3)) {
  console.error(`--rounds must be 3 or more\n${USAGE}`);
  process.exit(2);
}
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** CPU ms of the server's threads (processes under this one that run server/main.ts). */
function serverCpuMs(): number {
  let ms = 0;
  for (const [key, value] of ticksDeltaMs(new Map(), threadTicks())) if (key.startsWith('server/')) ms += value;
  return ms;
}

async function main(): Promise<void> {
  const server = await startServer({
    repoRoot,
    dataDir: freshDataDir('raidmap-tile-server-'),
    env: {
      SEED_MAPS: 'customs',
      MARKERS_PER_MAP: '100',
      ...(args.tiles ? { TILES_DIR: resolve(args.tiles) } : {}),
      ...(args['memory-mb'] !== undefined ? { TILE_MEMORY_MB: args['memory-mb'] } : {}),
    },
    startTimeoutMs: 600_000,
    tilesTimeoutMs: 600_000,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const get = (url: string) =>
    new Promise<number>((done, fail) => {
      http
        .get(url, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        })
        .on('error', fail);
    });
  try {
    const manifest = (await (await fetch(`${server.baseUrl}/tiles/customs/manifest.json`)).json()) as TileManifest;
    // The tiles of customs's first view at 1280 × 800 and 1 dppx, as the page asks for them.
    const urls = firstViewTileUrls(MAPS.customs, manifest, { width: 1280, height: 800 }, 1, server.baseUrl);
    const third = Math.floor(rounds / 3);
    for (let part = 1; part <= 3; part++) {
      const before = serverCpuMs();
      const started = performance.now();
      for (let r = 0; r < third; r++) {
        const codes = await Promise.all(urls.map(get));
        if (codes.some((code) => code !== 200)) throw new Error(`a tile answered ${codes.find((code) => code !== 200)}`);
      }
      const requests = third * urls.length;
      const cpu = serverCpuMs() - before;
      console.log(`part ${part}: ${requests} tile requests in ${(performance.now() - started).toFixed(0)} ms, server CPU ${(cpu / requests).toFixed(3)} ms a request`);
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

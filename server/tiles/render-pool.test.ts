import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { RenderPool, defaultPoolSize, disposeRenderPool, renderPool } from './render-pool';
import { renderRegion } from './render';
import type { LayerSvg } from './svg-doc';

const OPTIONS: ResvgRenderOptions = { fitTo: { mode: 'original' }, font: { loadSystemFonts: false }, shapeRendering: 2, logLevel: 'off' };

const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f" stop-opacity="0.3"/></linearGradient></defs>
  <rect width="300" height="200" fill="url(#g)"/>
  <circle cx="150" cy="100" r="70" fill="#0a0" opacity="0.6"/>
  <path d="M 10 190 C 80 10 220 10 290 190" stroke="#000" stroke-width="3.5" fill="none"/>
</svg>`;

/** resvg 2.6 panics (and aborts its process) on a group with opacity far off its canvas. */
const PANICS = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 8 8">
  <g opacity="0.4"><rect x="400" y="400" width="50" height="50"/></g>
</svg>`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const pools: RenderPool[] = [];
function pool(size = 2, timeoutMs?: number): RenderPool {
  const p = new RenderPool({ size, timeoutMs });
  pools.push(p);
  return p;
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.dispose()));
  await disposeRenderPool();
});

describe('RenderPool', () => {
  it('draws the same pixels as resvg in this process', async () => {
    const p = pool();
    const [image, local] = await Promise.all([p.render(PICTURE, OPTIONS), renderAsync(PICTURE, OPTIONS)]);
    expect([image.width, image.height]).toEqual([300, 200]);
    expect(Buffer.isBuffer(image.pixels)).toBe(true);
    expect(image.pixels.length).toBe(300 * 200 * 4);
    expect(image.pixels.equals(local.pixels)).toBe(true);
  });

  it('contains a resvg panic: only its job fails, the next one renders in a fresh child', async () => {
    const p = pool(1);
    await p.render(PICTURE, OPTIONS);
    const [first] = p.pids();
    const crashed = p.render(PANICS, OPTIONS, 'the far-off group');
    const after = p.render(PICTURE, OPTIONS);
    await expect(crashed).rejects.toThrow(/resvg crashed while rendering the far-off group .*(SIGABRT|exit code).*Option::unwrap/);
    const image = await after;
    expect(image.width).toBe(300);
    expect(p.crashes).toBe(1);
    expect(p.started).toBe(2);
    expect(p.pids()).not.toContain(first);
    expect(alive(first)).toBe(false);
  });

  it('a child killed mid-job rejects that job only; queued jobs go to a restarted child', async () => {
    const p = pool(1);
    const doomed = p.render(PICTURE, OPTIONS, 'the doomed job');
    const queued = [p.render(PICTURE, OPTIONS), p.render(PICTURE, OPTIONS)];
    expect(p.stats()).toEqual({ children: 1, busy: 1, queued: 2 });
    const [pid] = p.pids('busy');
    process.kill(pid, 'SIGKILL');
    await expect(doomed).rejects.toThrow(/resvg crashed while rendering the doomed job \(render process ended with signal SIGKILL\)/);
    for (const image of await Promise.all(queued)) expect(image.pixels.length).toBe(300 * 200 * 4);
    expect(p.pids()).toHaveLength(1);
    expect(p.pids()[0]).not.toBe(pid);
  });

  it('kills a child that takes longer than the timeout', async () => {
    const p = pool(1, 1);
    // A 1 ms limit: the child cannot even start in time.
    await expect(p.render(PICTURE, OPTIONS, 'the slow job')).rejects.toThrow(/resvg took longer than .* rendering the slow job/);
  });

  it('reports a document resvg refuses without losing the child', async () => {
    const p = pool(1);
    await expect(p.render('<svg', OPTIONS, 'broken')).rejects.toThrow(/resvg could not render broken/);
    await p.render(PICTURE, OPTIONS);
    expect(p.started).toBe(1);
  });

  it('runs at most `size` renders at once and queues the rest', async () => {
    const p = pool(2);
    let maxBusy = 0;
    const jobs = Array.from({ length: 7 }, () => p.render(PICTURE, OPTIONS).finally(() => (maxBusy = Math.max(maxBusy, p.stats().busy))));
    expect(p.stats()).toEqual({ children: 2, busy: 2, queued: 5 });
    await Promise.all(jobs);
    expect(maxBusy).toBeLessThanOrEqual(2);
    expect(p.stats()).toEqual({ children: 2, busy: 0, queued: 0 });
    expect(p.started).toBe(2);
  });

  it('dispose leaves no child alive and rejects unfinished jobs; the pool starts again on demand', async () => {
    const p = pool(2);
    await Promise.all([p.render(PICTURE, OPTIONS), p.render(PICTURE, OPTIONS)]);
    const pids = p.pids();
    expect(pids).toHaveLength(2);
    const pending = [p.render(PICTURE, OPTIONS), p.render(PICTURE, OPTIONS), p.render(PICTURE, OPTIONS)].map((job) =>
      job.then(
        () => 'rendered',
        (err: Error) => err.message,
      ),
    );
    await p.dispose();
    expect(await Promise.all(pending)).toEqual(Array(3).fill('the render pool was closed'));
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(p.stats()).toEqual({ children: 0, busy: 0, queued: 0 });
    expect((await p.render(PICTURE, OPTIONS)).width).toBe(300);
    await p.dispose();
    expect(p.pids()).toEqual([]);
  });

  it('keeps a script alive while it renders and disposes, and lets it end when idle', async () => {
    // Idle children are unref'd: a script must still wait for a render and for dispose().
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-pool-'));
    const script = path.join(dir, 'script.mts');
    const poolModule = pathToFileURL(fileURLToPath(new URL('./render-pool.ts', import.meta.url))).href;
    await fs.writeFile(
      script,
      `import { RenderPool } from ${JSON.stringify(poolModule)};
const pool = new RenderPool({ size: 1 });
const image = await pool.render(${JSON.stringify(PICTURE)}, ${JSON.stringify(OPTIONS)});
const [pid] = pool.pids();
await pool.dispose();
let alive = true;
try { process.kill(pid, 0); } catch { alive = false; }
console.log(JSON.stringify({ width: image.width, alive }));
// Nothing more: the script must end by itself.
`,
    );
    try {
      const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, [tsx, script], { timeout: 60_000 });
      expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ width: 300, alive: false });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('sizes itself from TILE_RENDER_PROCESSES, else at most two', () => {
    expect(defaultPoolSize({ TILE_RENDER_PROCESSES: '3' })).toBe(3);
    expect(defaultPoolSize({ TILE_RENDER_PROCESSES: '0' })).toBeLessThanOrEqual(2);
    expect(defaultPoolSize({})).toBeGreaterThanOrEqual(1);
    expect(defaultPoolSize({})).toBeLessThanOrEqual(2);
  });
});

describe('renderRegion', () => {
  it('renders through the shared pool, and a panicking region rejects instead of aborting the server', async () => {
    const layer = (body: string): LayerSvg => ({
      found: true,
      head: '',
      rootAttrs: new Map([['xmlns', 'http://www.w3.org/2000/svg']]),
      rootName: 'svg',
      body,
      viewBox: { x: 0, y: 0, width: 512, height: 512 },
      hasText: false,
    });
    const size = { width: 512, height: 512 };
    // Map 0..8 at 32×: the group with opacity lies some 50 canvases away (not culled here).
    const region = { mapX: 0, mapY: 0, scale: 32, outWidth: 256, outHeight: 256 };
    await expect(renderRegion(layer('<g opacity="0.4"><rect x="400" y="400" width="50" height="50"/></g></svg>'), region, size)).rejects.toThrow(
      /resvg crashed while rendering a 256×256 px region \(map 0, 0 at 32×\)/,
    );
    const image = await renderRegion(layer('<rect width="512" height="512" fill="#f00"/></svg>'), region, size);
    expect([...image.pixels.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect(renderPool().crashes).toBe(1);
  });
});

/**
 * renderOnce: one render across callers and across real processes sharing a folder; waiting,
 * reusing, stale locks of dead processes, heartbeats that keep a long render's lock, failures
 * that let the next caller render, and the wait limit.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/databases';
import { readAll, renderLockStats, renderOnce } from './render-lock';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folder(): { dir: string; lock: string; out: string } {
  const dir = tempDir('raidmap-lock-');
  dirs.push(dir);
  return { dir, lock: path.join(dir, '.locks', 'tile.lock'), out: path.join(dir, 'out.txt') };
}

/** A render that takes `ms`, counts itself and writes `out` atomically. */
function slowWork(out: string, ms: number, renders: { n: number }) {
  return {
    reuse: async () => (await readAll([out]))?.[0].toString(),
    render: async () => {
      renders.n++;
      await sleep(ms);
      fs.writeFileSync(`${out}.tmp`, `made ${renders.n}`);
      fs.renameSync(`${out}.tmp`, out);
      return `made ${renders.n}`;
    },
  };
}

describe('renderOnce', () => {
  it('renders once for callers that come together; the others wait and read the result', async () => {
    const { lock, out } = folder();
    const renders = { n: 0 };
    const before = { ...renderLockStats };
    const results = await Promise.all(Array.from({ length: 5 }, () => renderOnce(lock, slowWork(out, 150, renders))));
    expect(renders.n).toBe(1);
    expect(results).toEqual(Array(5).fill('made 1'));
    expect(renderLockStats.rendered - before.rendered).toBe(1);
    expect(renderLockStats.reused - before.reused).toBe(4);
    // The lock is gone afterwards.
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('reads a result that appeared before it took the lock, without rendering', async () => {
    const { lock, out } = folder();
    fs.writeFileSync(out, 'made elsewhere');
    const renders = { n: 0 };
    expect(await renderOnce(lock, slowWork(out, 10, renders))).toBe('made elsewhere');
    expect(renders.n).toBe(0);
  });

  it('renders once across real processes sharing the folder', async () => {
    const { dir, lock, out } = folder();
    const log = path.join(dir, 'renders.log');
    const script = path.join(dir, 'child.mts');
    fs.writeFileSync(
      script,
      `import fs from 'node:fs';
import { renderOnce, readAll } from ${JSON.stringify(path.join(here, 'render-lock.ts'))};
const result = await renderOnce(${JSON.stringify(lock)}, {
  reuse: async () => (await readAll([${JSON.stringify(out)}]))?.[0].toString(),
  render: async () => {
    fs.appendFileSync(${JSON.stringify(log)}, process.pid + '\\n');
    await new Promise((r) => setTimeout(r, 400));
    fs.writeFileSync(${JSON.stringify(out)} + '.' + process.pid, 'by ' + process.pid);
    fs.renameSync(${JSON.stringify(out)} + '.' + process.pid, ${JSON.stringify(out)});
    return 'by ' + process.pid;
  },
});
console.log(result);
`,
    );
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (c: Buffer) => (text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => (code === 0 ? resolve(text.trim()) : reject(new Error(`child exited ${code}: ${text}`))));
      });
    const results = await Promise.all([run(), run(), run()]);
    const renderers = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(renderers).toHaveLength(1);
    expect(results).toEqual(Array(3).fill(`by ${renderers[0]}`));
  }, 60_000);

  it('takes over the lock of a process that died (not touched for staleMs)', async () => {
    const { lock, out } = folder();
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, 'otherhost 99999 dead\n');
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(lock, old, old);
    const renders = { n: 0 };
    const before = renderLockStats.staleRemoved;
    const started = Date.now();
    expect(await renderOnce(lock, slowWork(out, 10, renders), { staleMs: 1000 })).toBe('made 1');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(renderLockStats.staleRemoved - before).toBe(1);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('keeps the lock of a render longer than staleMs fresh, so nobody renders it twice', async () => {
    const { lock, out } = folder();
    const renders = { n: 0 };
    const first = renderOnce(lock, slowWork(out, 800, renders), { staleMs: 150 });
    await sleep(30);
    const second = renderOnce(lock, slowWork(out, 800, renders), { staleMs: 150 });
    expect(await Promise.all([first, second])).toEqual(['made 1', 'made 1']);
    expect(renders.n).toBe(1);
  });

  it('lets the next caller render when a render fails, and leaves no lock behind', async () => {
    const { lock, out } = folder();
    const renders = { n: 0 };
    const failing = renderOnce(lock, {
      reuse: async () => undefined,
      render: async () => {
        await sleep(100);
        throw new Error('resvg crashed');
      },
    });
    await sleep(20);
    const next = renderOnce(lock, slowWork(out, 10, renders));
    await expect(failing).rejects.toThrow('resvg crashed');
    expect(await next).toBe('made 1');
    expect(renders.n).toBe(1);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('renders anyway after waiting maxWaitMs for a lock that stays fresh', async () => {
    const { lock, out } = folder();
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, 'a live holder that never finishes\n');
    const renders = { n: 0 };
    const before = renderLockStats.gaveUpWaiting;
    expect(await renderOnce(lock, slowWork(out, 10, renders), { staleMs: 60_000, maxWaitMs: 200 })).toBe('made 1');
    expect(renderLockStats.gaveUpWaiting - before).toBe(1);
    // Not ours: left in place.
    expect(fs.readFileSync(lock, 'utf8')).toMatch(/live holder/);
  });

  it('reports a folder it cannot write to (no lock, no render)', async () => {
    const { dir } = folder();
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const renders = { n: 0 };
    await expect(renderOnce(path.join(file, 'x.lock'), slowWork(path.join(dir, 'o'), 1, renders))).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(renders.n).toBe(0);
  });
});

describe('readAll', () => {
  it('reads every file, or answers undefined when one is missing', async () => {
    const { dir } = folder();
    fs.writeFileSync(path.join(dir, 'a'), 'A');
    fs.writeFileSync(path.join(dir, 'b'), 'B');
    expect((await readAll([path.join(dir, 'a'), path.join(dir, 'b')]))?.map(String)).toEqual(['A', 'B']);
    expect(await readAll([path.join(dir, 'a'), path.join(dir, 'missing')])).toBeUndefined();
    await expect(readAll([dir])).rejects.toThrow(/EISDIR/);
  });
});

/**
 * The build's compressed copies: a .br and a .gz beside each compressible asset of at least
 * MIN_BYTES, each decompressing to the file; small files, source maps and images get none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_BYTES, precompressFolder, wantsCopies } from './precompress';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('precompress', () => {
  it('wants copies of scripts, styles, SVG and JSON of at least MIN_BYTES only', () => {
    for (const name of ['a.js', 'a.mjs', 'a.css', 'a.svg', 'a.json', 'a.wasm']) expect(wantsCopies(name, MIN_BYTES), name).toBe(true);
    for (const name of ['a.js.map', 'a.png', 'a.webp', 'a.js.br', 'a.html']) expect(wantsCopies(name, 10 * MIN_BYTES), name).toBe(false);
    expect(wantsCopies('a.js', MIN_BYTES - 1)).toBe(false);
  });

  it('writes .br and .gz copies that decompress to the file, and nothing for the rest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'raidmap-precompress-'));
    dirs.push(dir);
    const script = 'export const answer = 42;\n'.repeat(400);
    fs.writeFileSync(path.join(dir, 'engine-A.js'), script);
    fs.writeFileSync(path.join(dir, 'tiny-B.js'), 'export {};');
    fs.writeFileSync(path.join(dir, 'engine-A.js.map'), '{}'.repeat(2000));
    fs.writeFileSync(path.join(dir, 'atlas.png'), Buffer.alloc(4096));
    fs.mkdirSync(path.join(dir, 'folder.js'));
    expect(await precompressFolder(dir)).toBe(1);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'engine-A.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'engine-A.js.gz'))).toString()).toBe(script);
    expect(fs.readdirSync(dir).sort()).toEqual(['atlas.png', 'engine-A.js', 'engine-A.js.br', 'engine-A.js.gz', 'engine-A.js.map', 'folder.js', 'tiny-B.js']);
  });

  it('does nothing for a folder that is not there', async () => {
    expect(await precompressFolder(path.join(os.tmpdir(), 'raidmap-no-such-folder-xyz'))).toBe(0);
  });
});

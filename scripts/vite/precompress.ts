/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each built script, style sheet and SVG
 * under `assets/`, once per build, at the best compression. The server sends them as they are
 * (`preCompressed` in server/http/static-site.ts) instead of compressing about 1.4 MB of scripts
 * on every cold page load, on the same CPU the page needs (issue 11, docs/PERFORMANCE.md "First
 * paint, fourth session"). Source maps and index.html are left alone: the first is rarely asked
 * for, the second gets a head written into it per request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth a compressed copy: text that browsers ask for with Accept-Encoding. */
export const COMPRESSIBLE = /\.(?:m?js|css|svg|json|wasm)$/;
/** Smaller files are sent as they are (the server's own compression threshold). */
export const MIN_BYTES = 1024;

export function wantsCopies(file: string, size: number): boolean {
  return COMPRESSIBLE.test(file) && size >= MIN_BYTES;
}

/** Writes `file.br` and `file.gz` for one file; returns the bytes of each. */
export async function writeCompressedCopies(file: string): Promise<{ br: number; gz: number }> {
  const body = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  return { br: br.length, gz: gz.length };
}

/** Writes the copies for every compressible file directly in `dir`; returns how many files. */
export async function precompressFolder(dir: string): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return 0;
  }
  const files: string[] = [];
  for (const name of entries) {
    if (!COMPRESSIBLE.test(name)) continue;
    const file = path.join(dir, name);
    // The size only: each file is read once, by writeCompressedCopies.
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && wantsCopies(name, info.size)) files.push(file);
  }
  await Promise.all(files.map((file) => writeCompressedCopies(file)));
  return files.length;
}

export function precompress(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'raidmap:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (!config) return;
      const assets = path.resolve(config.root, config.build.outDir, config.build.assetsDir);
      const count = await precompressFolder(assets);
      config.logger.info(`precompress: brotli and gzip copies of ${count} files in ${path.relative(config.root, assets)}`);
    },
  };
}

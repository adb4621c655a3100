/**
 * The map engine's script chunks, named in a map page's head as `modulepreload` links (issue
 * 11, the first second). The page asks for the engine with `import()` once its own script has
 * run (200–300 ms into a cold load here, later on a slow laptop); with the links the browser
 * fetches and compiles the chunks while that script still loads, and the `import()` finds them.
 * Other pages do not get them: the home page never needs the engine.
 *
 * Which engine: the one the page will load for its address (src/domain/render-mode.ts). By
 * default that is the render worker's page side (`worker-engine.ts`, no PixiJS: PixiJS loads
 * in the worker); with `?render=main` the main-thread engine and PixiJS. A choice stored in the
 * browser, or a browser without OffscreenCanvas, is unknown here: such a page imports its engine
 * without the hint, as a page without a build manifest does.
 *
 * The chunk names come from Vite's build manifest (`dist/.vite/manifest.json`, `build.manifest`
 * in vite.config.ts): the dynamic entries below and every chunk they import, less what the page
 * entry imports already (index.html preloads those). No manifest (an old build, a dev server):
 * no links, and the page loads the engine as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RenderMode } from '../../src/domain/render-mode';

/** The dynamic entries a map page needs at once, by where it draws: the engine and its interaction tools. */
export const MAP_PAGE_ENTRIES: Readonly<Record<RenderMode, readonly string[]>> = {
  worker: ['src/engine/worker-engine.ts', 'src/tools/index.ts'],
  main: ['src/engine/index.ts', 'src/tools/index.ts'],
};
/** The page's own entry in the manifest. */
const PAGE_ENTRY = 'index.html';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

function isManifest(value: unknown): value is Manifest {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every(
    (chunk) =>
      !!chunk &&
      typeof chunk === 'object' &&
      typeof (chunk as ManifestChunk).file === 'string' &&
      ((chunk as ManifestChunk).imports === undefined || (Array.isArray((chunk as ManifestChunk).imports) && (chunk as ManifestChunk).imports!.every((i) => typeof i === 'string'))),
  );
}

/** The manifest keys of `key` and of everything it imports, transitively. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, into);
  return into;
}

/**
 * The URLs (`/assets/…`) to preload for a map page drawn `mode`, entries first, then the chunks
 * they import in import order (depth first); [] when the manifest names none of the entries
 * (pure). Only static imports: the worker engine's dynamic import of the main-thread engine (its
 * fallback) is not preloaded.
 */
export function mapPagePreloads(manifest: unknown, mode: RenderMode = 'worker'): string[] {
  if (!isManifest(manifest)) return [];
  const entries = MAP_PAGE_ENTRIES[mode];
  const already = closure(manifest, PAGE_ENTRY);
  const wanted = new Set<string>();
  for (const entry of entries) closure(manifest, entry, wanted);
  const ordered = [...entries.filter((e) => wanted.has(e)), ...[...wanted].filter((k) => !entries.includes(k))];
  return ordered.filter((key) => !already.has(key) && /\.m?js$/.test(manifest[key].file)).map((key) => `/${manifest[key].file.replace(/^\/+/, '')}`);
}

/** The head's `<link rel="modulepreload">` lines for these URLs (same-origin, as index.html's). */
export function modulePreloadLinks(urls: readonly string[]): string {
  return urls.map((url) => `<link rel="modulepreload" crossorigin href="${url.replace(/[&"<>]/g, '')}">`).join('');
}

/**
 * The preload links of a map page drawn `mode` for the build in `distDir`, re-read when the
 * manifest file changes (a rebuild while the server runs); '' without a readable manifest.
 */
export function mapPagePreloadsFrom(distDir: string): (mode?: RenderMode) => string {
  const file = path.join(distDir, '.vite', 'manifest.json');
  let cached: { mtimeMs: number; links: Record<RenderMode, string> } | undefined;
  return (mode = 'worker') => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      cached = undefined;
      return '';
    }
    if (!cached || cached.mtimeMs !== stat.mtimeMs) {
      let manifest: unknown = null;
      try {
        manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        manifest = null;
      }
      cached = {
        mtimeMs: stat.mtimeMs,
        links: { worker: modulePreloadLinks(mapPagePreloads(manifest, 'worker')), main: modulePreloadLinks(mapPagePreloads(manifest, 'main')) },
      };
    }
    return cached.links[mode];
  };
}

/**
 * The map engine's script chunks, named in a map page's head as `modulepreload` links (issue
 * 11, the first second). The page asks for the engine with `import()` once its own script has
 * run (200–300 ms into a cold load here, later on a slow laptop); with the links the browser
 * fetches and compiles the chunks while that script still loads, and the `import()` finds them.
 * Other pages do not get them: the home page never needs the engine.
 *
 * The chunk names come from Vite's build manifest (`dist/.vite/manifest.json`, `build.manifest`
 * in vite.config.ts): the dynamic entries below and every chunk they import, less what the page
 * entry imports already (index.html preloads those). No manifest (an old build, a dev server):
 * no links, and the page loads the engine as before.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The dynamic entries a map page needs at once: the engine and its interaction tools. */
export const MAP_PAGE_ENTRIES = ['src/engine/index.ts', 'src/tools/index.ts'] as const;
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
 * The URLs (`/assets/…`) to preload for a map page, entries first, then the chunks they import
 * in import order (depth first); [] when the manifest names none of the entries (pure).
 */
export function mapPagePreloads(manifest: unknown): string[] {
  if (!isManifest(manifest)) return [];
  const already = closure(manifest, PAGE_ENTRY);
  const wanted = new Set<string>();
  for (const entry of MAP_PAGE_ENTRIES) closure(manifest, entry, wanted);
  const ordered = [...MAP_PAGE_ENTRIES.filter((e) => wanted.has(e)), ...[...wanted].filter((k) => !(MAP_PAGE_ENTRIES as readonly string[]).includes(k))];
  return ordered.filter((key) => !already.has(key) && /\.m?js$/.test(manifest[key].file)).map((key) => `/${manifest[key].file.replace(/^\/+/, '')}`);
}

/** The head's `<link rel="modulepreload">` lines for these URLs (same-origin, as index.html's). */
export function modulePreloadLinks(urls: readonly string[]): string {
  return urls.map((url) => `<link rel="modulepreload" crossorigin href="${url.replace(/[&"<>]/g, '')}">`).join('');
}

/**
 * The preload links of a map page for the build in `distDir`, re-read when the manifest file
 * changes (a rebuild while the server runs); '' without a readable manifest.
 */
export function mapPagePreloadsFrom(distDir: string): () => string {
  const file = path.join(distDir, '.vite', 'manifest.json');
  let cached: { mtimeMs: number; links: string } | undefined;
  return () => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      cached = undefined;
      return '';
    }
    if (cached && cached.mtimeMs === stat.mtimeMs) return cached.links;
    let links = '';
    try {
      links = modulePreloadLinks(mapPagePreloads(JSON.parse(fs.readFileSync(file, 'utf8'))));
    } catch {
      links = '';
    }
    cached = { mtimeMs: stat.mtimeMs, links };
    return links;
  };
}

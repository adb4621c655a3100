/** Maps a built script's positions back to the sources, through the build's source maps (`dist/assets/*.js.map`). */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import type { SourceLookup } from './cpu-profile';

/** Source maps of the build's scripts in `distDir`, read once each (null where a script has none). */
export function buildSourceLookup(distDir: string): SourceLookup {
  const maps = new Map<string, SourceMapConsumer | null>();
  return (url, line, column) => {
    const path = new URL(url).pathname;
    if (!path.startsWith('/assets/')) return null;
    let map = maps.get(path);
    if (map === undefined) {
      const file = resolve(distDir, `.${path}.map`);
      map = existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))) : null;
      maps.set(path, map);
    }
    if (!map) return null;
    const original = map.originalPositionFor({ line, column });
    return original.source ? { source: original.source, line: original.line ?? 0, name: original.name ?? null } : null;
  };
}

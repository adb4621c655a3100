/**
 * Server options for tests of the built site's pages: a minimal `dist/index.html` under `root`
 * (with `files`, other files of the build, by path under dist), and the uploads, assets and
 * tiles folders beside it.
 */
import fs from 'node:fs';
import path from 'node:path';

export const BUILT_INDEX_HTML = '<!doctype html><html><head><title>raidmap</title></head><body><div id="root"></div></body></html>';

export function builtSiteOptions(root: string, files: Record<string, string> = {}) {
  const distDir = path.join(root, 'dist');
  for (const [file, content] of Object.entries({ 'index.html': BUILT_INDEX_HTML, ...files })) {
    fs.mkdirSync(path.dirname(path.join(distDir, file)), { recursive: true });
    fs.writeFileSync(path.join(distDir, file), content);
  }
  return { uploadsDir: path.join(root, 'uploads'), distDir, assetsDir: path.join(root, 'assets'), tilesDir: path.join(root, 'tiles') };
}

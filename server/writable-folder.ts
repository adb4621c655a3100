/**
 * Start-up check of a folder the server writes to (TILES_DIR, $DATA_DIR/uploads): created when
 * missing, then a file written and removed in it. A folder that cannot be written would
 * otherwise surface only later, as a failed build of every tile and a 500 for every tile
 * request, while health said all was well; now the server stops at once with one line
 * (server/startup-problem.ts; docs/SERVER.md "Start-up errors").
 */
import fs from 'node:fs';
import path from 'node:path';

/** Throws the file system's error (code ENOTDIR, EEXIST, EACCES, EROFS, ENOSPC…) with `path` the folder. */
export function checkWritableFolder(folder: string): void {
  try {
    fs.mkdirSync(folder, { recursive: true });
    // mkdir succeeds on an existing folder whatever its permissions: only a write tells.
    const probe = path.join(folder, `.raidmap-write-check-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (error) {
    // The folder, not the probe file inside it, is what the operator has to fix.
    if (error && typeof error === 'object' && 'path' in error) (error as { path: string }).path = folder;
    throw error;
  }
}

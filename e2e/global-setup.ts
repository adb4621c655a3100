/**
 * Vitest global setup for the end-to-end tests: starts the real server on a free port with a
 * fresh temporary DATA_DIR (so the tests see a freshly seeded SQLite database), waits for
 * /api/be/health, and hands the base URL to the tests (`inject('baseUrl')`). The server is
 * stopped on teardown, whatever the tests did, and the temp folder is removed.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freshDataDir, startServer, type RunningServer } from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the server under test, e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** The tile folder that server built (tests may start more servers on it). */
    tilesDir: string;
  }
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = freshDataDir();
  let server: RunningServer | undefined;
  const cleanUp = () => {
    rmSync(dataDir, { recursive: true, force: true });
  };
  // If vitest dies without running teardown, do not leave the server behind.
  const onExit = () => server?.killNow();
  try {
    server = await startServer({
      repoRoot,
      dataDir,
      startTimeoutMs: 120_000,
      // Tiles render on demand, but a finished background build keeps the CPU free for Chromium.
      tilesTimeoutMs: Number(process.env.E2E_TILES_WAIT_MS ?? 180_000),
    });
  } catch (error) {
    cleanUp();
    throw error;
  }
  process.once('exit', onExit);
  const running = server;
  running.onUnexpectedExit((reason) => {
    console.error(`\ne2e: the raidmap server ${reason} while the tests ran; every later test will fail to connect.\n--- last server output ---\n${running.logs().slice(-40).join('\n')}\n---`);
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('tilesDir', process.env.TILES_DIR ?? join(dataDir, 'tiles'));
  const { tiles } = server.health;
  console.log(`e2e: raidmap server at ${server.baseUrl} (tiles ${tiles.done}/${tiles.total}${tiles.ready ? ', ready' : ', still building'})`);

  return async () => {
    process.off('exit', onExit);
    await server?.stop();
    if (process.env.E2E_SERVER_LOGS) console.log(server?.logs().join('\n'));
    cleanUp();
  };
}

/**
 * Entry point (`npm run serve`): reads the settings, migrates the database, seeds sample
 * content into an empty one, starts listening at once, then warms the marker-list caches and
 * prepares the tile pyramids in the background (progress in GET /api/be/health).
 */
import { createServer, type AddressInfo } from 'node:net';
import { MAPS, MAP_IDS } from '../src/domain/maps';
import { LANGUAGES } from '../src/domain/marker';
import { compactKey } from './routes/markers';
import { buildServer } from './app';
import { createDemoAccounts } from './auth/demo';
import { ConfigError, loadConfig } from './config';
import { createRepositories, databaseOptions, migrateToLatest, openDatabase } from './db';
import { connectionErrorLine } from './db/database';
import { storageFailure } from './db/failure';
import { DatabaseInUseError, lockSqliteDatabase } from './db/sqlite-lock';
import { withStartupLock } from './db/startup-lock';
import { createLiveHub, liveHubReady } from './live/create';
import { consoleLiveLog, type LiveLog } from './live/pg-hub';
import type { TileProgress } from './routes/health';
import { inlineListSource } from './lists/list-source';
import { sharesDatabase, WorkerListSource } from './lists/worker-list-source';
import { seedIfEmpty, seedLine } from './seed';
import { disposeRenderPool, prepareAllTiles } from './tiles/index';
import { startUploadSweeper } from './uploads/sweeper';
import { startupProblem, type StartupContext } from './startup-problem';
import { checkWritableFolder } from './writable-folder';

/** What a start-up failure is said against (set once the settings are read). */
let startup: StartupContext | undefined;

/**
 * The start-up lines before the JSON logger exists (database, seeding, demo accounts) and the
 * listening line: plain text, as supervisors and scripts wait for `raidmap listening on`; none
 * at LOG_LEVEL=silent. Everything after start-up goes through the logger (docs/SERVER.md,
 * "Logs and metrics").
 */
function startupLines(level: string) {
  const quiet = level === 'silent';
  return {
    say: (line: string) => {
      if (!quiet) console.log(line);
    },
    warn: (line: string) => {
      if (!quiet) console.warn(line);
    },
  };
}

/** Fastify logs its listening line at `info`: it is raidmap's start line then, said once. */
const LOGGER_SAYS_LISTENING = new Set(['info', 'debug', 'trace']);

/**
 * Listens on the address once and lets go, before the database is touched: a port in use or a
 * wrong HOST is said at once, not after migrating and seeding (the real listen may still race).
 * PORT=0 too: any free port then, but a HOST that is no address here fails all the same.
 */
function checkCanListen(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const plain = startupLines(config.logLevel);
  startup = { host: config.host, port: config.port, dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  await checkCanListen(config.host, config.port);
  // Folders it writes to, before the database: a file in the path, no permission or a read-only
  // disk stops it here in one line, not as a 500 on every upload or tile later.
  checkWritableFolder(config.uploadsDir);
  checkWritableFolder(config.tilesDir);
  const database = databaseOptions(config);
  // SQLite is this process's alone; a second server on it is refused before it migrates (server/db/sqlite-lock.ts).
  const sqliteLock = config.databaseUrl ? undefined : lockSqliteDatabase(config.sqliteFile);
  // A broken idle PostgreSQL connection is one line (console until the logger exists), never the end.
  let logConnectionError = (error: Error) => plain.warn(connectionErrorLine(error));
  const db = openDatabase({ ...database, onConnectionError: (error) => logConnectionError(error) });
  const where = config.databaseUrl ? `PostgreSQL${config.databaseSchema ? ` (schema ${config.databaseSchema})` : ''}` : config.sqliteFile;
  const repos = createRepositories(db);
  // Once per database, also when several processes start together (server/db/startup-lock.ts).
  await withStartupLock(db, async () => {
    const migrations = await migrateToLatest(db);
    if (migrations.length > 0) plain.say(`database ${where}: applied ${migrations.map((m) => m.migrationName).join(', ')}`);
    const seed = await seedIfEmpty(db, repos, { maps: config.seedMaps, markersPerMap: config.markersPerMap, uploadsDir: config.uploadsDir });
    plain.say(seedLine(seed, where, config.seedMaps.length));
    await createDemoAccounts(repos, { enabled: config.demoAccounts, nodeEnv: process.env.NODE_ENV, log: plain.say, warn: plain.warn });
  });

  // Live events: across processes through LISTEN/NOTIFY on PostgreSQL (server/live/pg-hub.ts).
  // Its lines go to the console until the JSON logger exists, then through it (below).
  let liveTarget: LiveLog = consoleLiveLog;
  const liveLog: LiveLog = {
    info: (obj, msg) => liveTarget.info?.(obj, msg),
    warn: (obj, msg) => liveTarget.warn(obj, msg),
    error: (obj, msg) => liveTarget.error(obj, msg),
  };
  const live = createLiveHub({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, log: liveLog });
  if (!(await liveHubReady(live, 15_000))) plain.warn('live: not listening on PostgreSQL yet; changes from other server processes arrive once it does');

  // The marker lists are built on a worker thread with its own connection (server/lists/).
  let logListError = (error: Error) => plain.warn(`marker list worker: ${error.message}`);
  const listSource = sharesDatabase(database)
    ? new WorkerListSource({ database, fallback: inlineListSource(repos.markers), onError: (error) => logListError(error) })
    : inlineListSource(repos.markers);

  const progress: TileProgress = { ready: false, done: 0, total: 0, failed: [] };
  const app = buildServer({
    db,
    repos,
    uploadsDir: config.uploadsDir,
    distDir: config.distDir,
    assetsDir: config.assetsDir,
    tilesDir: config.tilesDir,
    tileProgress: () => progress,
    tileCache: config.tileCache,
    live,
    listSource,
    limits: config.limits,
    security: config.security,
    metricsToken: config.metricsToken,
    trustProxy: config.trustProxy,
    // JSON lines on stdout; each request's lines carry its reqId (docs/SERVER.md "Logs and metrics").
    logger: { level: config.logLevel },
  });

  logListError = (error) => app.log.error({ err: error }, 'marker list worker');
  // The reason and code only: the error carries no secrets, but pino would print its fields whole.
  logConnectionError = (error) =>
    app.log.warn({ reason: error.message, code: (error as { code?: unknown }).code }, 'database: a PostgreSQL connection was lost; the next query opens a new one');
  // JSON lines like every other, the reason as a field (`live: lost the … connection`, `reason`).
  liveTarget = {
    info: (obj, msg) => app.log.info(obj, `live: ${msg}`),
    warn: (obj, msg) => app.log.warn(obj, `live: ${msg}`),
    error: (obj, msg) => app.log.error(obj, `live: ${msg}`),
  };

  // Uploaded images no marker uses, once the editor's undo window has passed (docs/SERVER.md "Uploads").
  const stopSweeper = startUploadSweeper({
    db,
    uploadsDir: config.uploadsDir,
    windowMs: config.uploadRetentionMs,
    onSweep: (result) => app.log.info({ removed: result.removed.length, waiting: result.waiting }, 'removed unused uploads'),
    onError: (error) => app.log.error({ err: error }, 'upload sweep failed'),
  });

  let closing = false;
  const tileBuild = new AbortController();
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    // A normal stop is no warning: at info, with a line when it is done (after that, only exit).
    app.log.info(`${signal}: closing`);
    tileBuild.abort();
    await stopSweeper().catch(() => undefined);
    try {
      await app.close();
      // app.close() stopped the resvg children (tiles plugin); a build job may have started one since.
      await disposeRenderPool();
      await listSource.close();
      await live.close();
      await db.close();
      sqliteLock?.release();
      app.log.info('closed');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => `raidmap listening on ${address}` });
  const { port } = app.server.address() as AddressInfo;
  if (!LOGGER_SAYS_LISTENING.has(config.logLevel)) plain.say(`raidmap listening on http://${config.host}:${port}`);

  // Background work: the first visitor should not pay for building a list or a tile.
  const warmLists = async () => {
    const counts = await repos.markers.countByMap();
    for (const map of MAP_IDS) {
      if (closing || !counts[map]) continue;
      // The compact lists first, the binary ones the map page reads before the JSON (issue 11).
      for (const format of ['binary', 'json'] as const) {
        for (const lang of LANGUAGES) {
          const compact = await app.raidmap.compactLists.get(compactKey(map, lang, format));
          await app.raidmap.compactLists.encoded(compact, 'br');
        }
      }
      const body = await app.raidmap.markerLists.get(map);
      await app.raidmap.markerLists.encoded(body, 'br');
    }
  };
  void (async () => {
    // A database that stops answering meanwhile costs the warm lists (built on first request
    // then), not the tile build after them: health would say "building" for good.
    await warmLists().catch((error: unknown) => {
      const failure = storageFailure(error);
      if (closing) return;
      if (failure) app.log.warn({ code: failure.code, reason: error instanceof Error ? error.message : String(error) }, `marker lists not warmed: ${failure.reason}`);
      else app.log.error({ err: error }, 'marker lists not warmed');
    });
    if (closing) return;
    const tiles = await prepareAllTiles({
      assetsDir: config.assetsDir,
      tilesDir: config.tilesDir,
      maps: Object.values(MAPS),
      signal: tileBuild.signal,
      log: app.log,
      onProgress: (done, total) => {
        progress.done = done;
        progress.total = total;
      },
    });
    if (closing) return;
    progress.failed = tiles.failed.map((f) => f.map);
    progress.ready = true;
    // Each failed map's reason is logged already, at error; here its name only.
    const failed = progress.failed.join(', ');
    if (failed) app.log.warn(`tiles ready in ${Math.round(tiles.ms)} ms; failed: ${failed}`);
    else app.log.info(`tiles ready in ${Math.round(tiles.ms)} ms`);
  })().catch((error: unknown) => {
    // Cut short by a stop (the list source closed under it): the stop's doing, not a failure.
    if (!closing) app.log.error({ err: error }, 'background preparation failed');
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`raidmap: bad setting ${error.message}`);
  } else if (error instanceof DatabaseInUseError) {
    console.error(`raidmap: ${error.message}`);
  } else {
    // The machine's or the settings' fault in one line; raidmap's own in full (a bug to report).
    const problem = startup ? startupProblem(error, startup) : null;
    if (problem) console.error(`raidmap: ${problem}`);
    else console.error('raidmap failed to start:', error);
  }
  process.exit(1);
});

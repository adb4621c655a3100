/**
 * buildServer(options): the Fastify app (not listening), used by server/main.ts and by tests
 * through `app.inject`. The database is opened and migrated by the caller and passed in.
 */
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerAuth, type AuthOptions } from './auth';
import { REPO_ROOT, type TrustProxy } from './config';
import { createRepositories, type Db, type Repositories } from './db';
import { storageFailure } from './db/failure';
import { errorHandler, sendError } from './http/errors';
import { JsonCache } from './http/json-cache';
import { registerJsonBody } from './http/json-body';
import { registerNoNul } from './http/no-nul';
import { pathLengthProblem, registerPathLimit } from './http/url-path';
import { Metrics, registerMetrics } from './http/metrics';
import { registerRequestLog, requestLogServerOptions } from './http/request-log';
import {
  DEFAULT_CONNECTION_LIMITS,
  CspReports,
  capConnectionsPerAddress,
  isLongLivedRoute,
  registerCspReports,
  registerLongLivedRoutes,
  registerSecurityHeaders,
  timeoutServerOptions,
  trustedProxyTest,
  type ConnectionLimits,
  type SecurityOptions,
} from './http/security';
import { iconAtlasHead } from './http/icon-atlas';
import { mapPageExtras } from './http/map-page-head';
import { htmlPosters, registerPosterStylesheet } from './http/map-poster';
import { mapPagePreloadsFrom } from './http/module-preloads';
import { registerStaticSite } from './http/static-site';
import { bridgeMarkerEvents } from './live/bridge';
import { MemoryLiveHub, type LiveHub } from './live/hub';
import { liveRoutes } from './live/sse';
import { pilotLimitsFromEnv, type PilotLimits } from './pilot/limits';
import { pilotRoutes } from './pilot/routes';
import { ITEMS_KEY, QUESTS_KEY, cacheRoutes } from './routes/caches';
import { adminRoutes } from './routes/admin';
import { adminUserRoutes } from './routes/admin-users';
import { authRoutes } from './routes/auth';
import { healthRoutes, type TileProgress } from './routes/health';
import { COMPACT_FORMATS, compactKey, markerRoutes, parseCompactKey } from './routes/markers';
import { inlineListSource, type MarkerListSource } from './lists/list-source';
import { LANGUAGES } from '../src/domain/marker';
import { questRoutes } from './routes/quests';
import { userRoutes } from './routes/user';
import { getTileStore } from './tiles/store';
import { tilesPlugin } from './tiles/index';

/** Characters of one path parameter (a marker uid, a map id, a tile address) at most; more answers 414. */
const MAX_PARAM_LENGTH = 200;

/** How long a burst of marker writes must pause before an unread list is rebuilt. */
export const MARKER_LIST_UNREAD_DELAY_MS = 500;

export interface BuildServerOptions {
  /** An opened, migrated database (see openDatabase / migrateToLatest in server/db). */
  db: Db;
  /**
   * Reverse proxies whose X-Forwarded-For / -Proto / -Host are believed (TRUST_PROXY,
   * server/config.ts), so `request.ip` — what every per-address limit counts — is the client's.
   * Default: none.
   */
  trustProxy?: TrustProxy;
  /** Default: repositories over `db`. */
  repos?: Repositories;
  /** `$DATA_DIR/uploads`, served at /uploads/. Created when missing. */
  uploadsDir: string;
  /** Built site. Default: <repo>/dist. */
  distDir?: string;
  /** assets/ (icons at assets/icons, real maps at assets/maps). Default: <repo>/assets. */
  assetsDir?: string;
  /** Tile cache folder; required unless `tiles` is false. */
  tilesDir?: string;
  /** Serve /tiles (default true). */
  tiles?: boolean;
  /** The on-demand tile cache's budget, the hot tiles in memory and the per-address render limit (TILE_CACHE_MAX_MB, TILE_MEMORY_MB, TILE_RENDERS_PER_MINUTE). */
  tileCache?: { maxBytes?: number; memoryBytes?: number; rendersPerMinute?: number };
  /** Progress of the background tile build, for /api/be/health. Default: ready. */
  tileProgress?: () => TileProgress;
  logger?: FastifyServerOptions['logger'];
  /** Accounts: clock for sessions and rate limits (tests). */
  auth?: AuthOptions;
  /**
   * Live events (server/live/hub.ts). Default: an in-process hub, closed with the app. Several
   * processes on PostgreSQL pass a PgLiveHub (server/live/create.ts) and close it themselves.
   */
  live?: LiveHub;
  /**
   * Where the marker lists are built (server/lists/). Default: on this thread, from `repos`. The
   * server (main.ts) passes a worker-thread source and closes it itself.
   */
  listSource?: MarkerListSource;
  /** Ping interval of the live streams (tests). Default 25 s. */
  livePingMs?: number;
  /** CSP extras: image origins (a CDN), who may frame overlay pages (server/http/security.ts). */
  security?: SecurityOptions;
  /** Time-outs and the per-address connection cap; each defaults to DEFAULT_CONNECTION_LIMITS. */
  limits?: Partial<ConnectionLimits>;
  /** Bearer token that may read GET /api/be/metrics besides admins (METRICS_TOKEN). */
  metricsToken?: string;
  /**
   * The live position feed (server/pilot/routes.ts, docs/PILOT.md): its clock (tests expire a
   * pairing without waiting), its limits (default: RATE_LIMIT_PILOT_* from the environment;
   * what is given here replaces those) and the expired-pairing sweep interval (0: only at start).
   */
  pilot?: { now?: () => number; limits?: Partial<PilotLimits>; sweepEveryMs?: number };
}

/** What later routes (admin, auth) need from the app: the repositories and the list caches. */
export interface RaidmapContext {
  repos: Repositories;
  /** Marker lists by map id; invalidated whenever markers of a map change. */
  markerLists: JsonCache;
  /** Compact marker lists (issue 11) by `compactKey(map, lang, format)`; invalidated with markerLists. */
  compactLists: JsonCache;
  /** Quest and item caches (keys 'quests' and 'items'). */
  lists: JsonCache;
  /** Live events: every committed marker write is published on `markersChannel(map)`. */
  live: LiveHub;
}

declare module 'fastify' {
  interface FastifyInstance {
    raidmap: RaidmapContext;
  }
}

export function buildServer(options: BuildServerOptions): FastifyInstance {
  const repos = options.repos ?? createRepositories(options.db);
  const assetsDir = options.assetsDir ?? path.join(REPO_ROOT, 'assets');
  const distDir = options.distDir ?? path.join(REPO_ROOT, 'dist');
  const tileProgress = options.tileProgress ?? (() => ({ ready: true, done: 0, total: 0 }));
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  // Read here, not in the plugin, so a bad RATE_LIMIT_PILOT_* stops buildServer at once (ConfigError).
  const pilotLimits: PilotLimits = { ...pilotLimitsFromEnv(process.env), ...options.pilot?.limits };

  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    // Marker uids, map ids and tile addresses are short; anything longer is a bad request.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Header, request, keep-alive and inactivity time-outs (docs/SERVER.md "Time-outs").
    ...timeoutServerOptions(limits),
    // Request ids (an incoming X-Request-Id when sane) and one access-log line per request.
    ...requestLogServerOptions(),
    // Malformed URLs and the like get the same `{ error, message }` shape as everything else.
    frameworkErrors: (error, request, reply) => {
      // The router's 414 (a parameter over maxParamLength) quotes the whole parameter: not
      // echoed; a path over its own bound gets the same answer as on any other route.
      if (error.statusCode === 414) {
        return sendError(reply, 414, pathLengthProblem(request.url) ?? `a part of the path is longer than ${MAX_PARAM_LENGTH} characters`);
      }
      sendError(reply, error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400, error.message);
    },
  });

  // A rebuild after writes runs in the background; only a failure nobody waited for is logged here.
  // A database that does not answer is one short line (server/db/failure.ts), not a stack each time.
  const logRebuildError = (key: string, error: unknown) => {
    const failure = storageFailure(error);
    if (failure) app.log.error({ key, code: failure.code, reason: error instanceof Error ? error.message : String(error) }, `cached list rebuild failed: ${failure.reason}`);
    else app.log.error({ err: error, key }, 'cached list rebuild failed');
  };
  const listSource = options.listSource ?? inlineListSource(repos.markers);
  // A marker list nobody read since its last rebuild waits for the writes to pause (json-cache.ts).
  const markerListOptions = { onError: logRebuildError, unreadDelayMs: MARKER_LIST_UNREAD_DELAY_MS };
  const markerLists = new JsonCache((map) => listSource.full(map), markerListOptions);
  const compactLists = new JsonCache((key) => {
    const { map, lang, format } = parseCompactKey(key);
    return listSource.compact(map, lang, format);
  }, markerListOptions);
  const lists = new JsonCache(async (key) => {
    if (key === QUESTS_KEY) return JSON.stringify({ quests: await repos.quests.list() });
    if (key === ITEMS_KEY) return JSON.stringify({ items: await repos.items.list() });
    throw new Error(`no list named ${key}`);
  }, { onError: logRebuildError });
  const stopListening = repos.markers.onChange((map) => {
    markerLists.invalidate(map);
    for (const lang of LANGUAGES) for (const format of COMPACT_FORMATS) compactLists.invalidate(compactKey(map, lang, format));
  });
  const live = options.live ?? new MemoryLiveHub((error) => app.log.error({ err: error }, 'live listener failed'));
  // Marker changes out to the live streams (and other processes); other processes' changes in to the caches.
  const stopPublishing = bridgeMarkerEvents(repos.markers, live);
  app.addHook('onClose', async () => {
    stopListening();
    stopPublishing();
    markerLists.dispose();
    compactLists.dispose();
    lists.dispose();
    if (!options.listSource) await listSource.close();
    if (!options.live) await live.close();
  });
  app.decorate('raidmap', { repos, markerLists, compactLists, lists, live });

  const refusedAt = new Map<string, number>();
  const connections = capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress, {
    exempt: trustedProxyTest(options.trustProxy),
    onRefuse: (key) => {
      // One line per address a minute, however many sockets it opens.
      const now = Date.now();
      if ((refusedAt.get(key) ?? 0) > now - 60_000) return;
      if (refusedAt.size > 10_000) refusedAt.clear();
      refusedAt.set(key, now);
      app.log.warn({ address: key, cap: limits.maxConnectionsPerAddress }, 'too many open connections from one address: closing the new ones');
    },
  });

  app.setErrorHandler(errorHandler);
  // First, so its headers reach every route and the not-found handler (the SPA fallback).
  registerSecurityHeaders(app, options.security);
  // Then an over-long path is answered 414, before any route or file lookup (url-path.ts).
  registerPathLimit(app);
  registerLongLivedRoutes(app);
  registerRequestLog(app);
  // JSON bodies: a 400 that says what is wrong (prototype keys refused by name).
  registerJsonBody(app);
  // Before any route's own validation: U+0000 in a field is refused (PostgreSQL cannot store it).
  registerNoNul(app);
  const metrics = new Metrics(isLongLivedRoute);
  metrics.gauge('raidmap_http_open_connections', 'Open client connections (sockets).', () => connections.open());
  metrics.counter('raidmap_http_connections_refused_total', 'Connections closed at once for going over MAX_CONNECTIONS_PER_ADDRESS.', () => connections.refused());
  if (options.tiles !== false && options.tilesDir) {
    const tileStore = getTileStore({ assetsDir, tilesDir: options.tilesDir });
    metrics.counter('raidmap_tile_renders_total', 'Metatiles rendered by this process (background build and on demand).', () => tileStore.renders);
    metrics.gauge('raidmap_tile_cache_bytes', 'Bytes of on-demand tiles on disk known to this process (budget: TILE_CACHE_MAX_MB).', () => tileStore.stats().cacheBytes);
    metrics.gauge('raidmap_tile_memory_bytes', 'Bytes of hot tiles this process keeps in memory (budget: TILE_MEMORY_MB).', () => tileStore.stats().memoryBytes);
    metrics.counter('raidmap_tile_memory_hits_total', 'Tiles answered from memory, without reading their file.', () => tileStore.stats().memoryHits);
    metrics.counter('raidmap_tile_cache_evicted_total', 'On-demand tiles deleted to stay within TILE_CACHE_MAX_MB.', () => tileStore.stats().evictedFiles);
    metrics.counter('raidmap_tile_renders_refused_total', 'Uncached tile renders refused to an address over TILE_RENDERS_PER_MINUTE (a parent tile or 429 sent instead).', () => tileStore.stats().refusedRenders);
  }
  const cspReports = new CspReports();
  registerCspReports(app, cspReports);
  metrics.counter('raidmap_csp_reports_total', 'Content-Security-Policy violations reported by browsers, by directive.', () =>
    [...cspReports.counts()].map(([directive, value]) => ({ labels: { directive }, value })),
  );
  registerMetrics(app, { metrics, token: options.metricsToken });
  app.register(fastifyCompress, { global: true, threshold: 1024 });
  app.register(healthRoutes, { tileProgress, db: options.db });
  app.register(markerRoutes, { markerLists, compactLists, markers: repos.markers });
  app.register(cacheRoutes, { lists });
  app.register(questRoutes, { db: options.db, markers: repos.markers });
  registerAuth(app, repos, options.auth);
  app.register(authRoutes);
  app.register(userRoutes);
  // Images may come from this site and the CDN origin the pages' img-src allows (security.ts).
  app.register(adminRoutes, { uploadsDir: options.uploadsDir, imgOrigins: options.security?.imgOrigins });
  app.register(adminUserRoutes);
  app.register(liveRoutes, { hub: live, pingMs: options.livePingMs });
  app.register(pilotRoutes, {
    db: options.db,
    hub: live,
    rateLimits: repos.rateLimits,
    limits: pilotLimits,
    now: options.pilot?.now,
    pingMs: options.livePingMs,
    sweepEveryMs: options.pilot?.sweepEveryMs,
  });
  if (options.tiles !== false) {
    if (!options.tilesDir) throw new Error('buildServer: tilesDir is required unless tiles is false');
    app.register(tilesPlugin, {
      assetsDir,
      tilesDir: options.tilesDir,
      cache: { maxBytes: options.tileCache?.maxBytes, memoryBytes: options.tileCache?.memoryBytes },
      renderLimit: options.tileCache?.rendersPerMinute !== undefined ? { perMinute: options.tileCache.rendersPerMinute } : undefined,
    });
  }
  // A map page carries in its head (issue 11) its tile manifest (the same answer as
  // /tiles/{map}/manifest.json) and the engine's chunks to preload, and in its body the poster
  // of its first view (map-poster.ts), drawn by a stylesheet of the tile version.
  const manifestOf = options.tiles !== false && options.tilesDir ? (mapId: string) => getTileStore({ assetsDir, tilesDir: options.tilesDir! }).manifest(mapId) : undefined;
  const posterOf = manifestOf ? htmlPosters(manifestOf) : undefined;
  if (posterOf) registerPosterStylesheet(app, posterOf);
  // …and the icon atlas's version, so the page asks for the atlas under a URL cached for good.
  const iconsDir = path.join(assetsDir, 'icons');
  const extrasFor = mapPageExtras(posterOf, mapPagePreloadsFrom(distDir), iconAtlasHead(iconsDir, app.log));
  registerStaticSite(app, { distDir, iconsDir, uploadsDir: options.uploadsDir, extrasFor });
  return app;
}

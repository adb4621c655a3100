import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAP_IDS } from '../src/domain/maps';
import { ConfigError, loadConfig, parseSeedMaps, parseTrustProxy } from './config';
import { DEFAULT_CONNECTION_LIMITS } from './http/security';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, '/srv/raidmap');
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/raidmap/data',
      tilesDir: '/srv/raidmap/data/tiles',
      uploadsDir: '/srv/raidmap/data/uploads',
      sqliteFile: '/srv/raidmap/data/raidmap.sqlite',
      databaseUrl: undefined,
      markersPerMap: 320,
      seedMaps: [...MAP_IDS],
    });
  });

  it('reads every setting from the environment', () => {
    const c = loadConfig(
      { PORT: '9000', HOST: '0.0.0.0', DATA_DIR: 'var', TILES_DIR: '/cache/tiles', DATABASE_URL: 'postgresql://u:p@h/db', MARKERS_PER_MAP: '100000', SEED_MAPS: 'customs, factory' },
      '/app',
    );
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: path.resolve('/app/var'),
      tilesDir: '/cache/tiles',
      databaseUrl: 'postgresql://u:p@h/db',
      markersPerMap: 100_000,
      seedMaps: ['customs', 'factory'],
    });
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ MARKERS_PER_MAP: '-1' })).toThrow(/MARKERS_PER_MAP/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseSeedMaps('customs,atlantis')).toThrow(/atlantis/);
    expect(parseSeedMaps('all')).toEqual([...MAP_IDS]);
    expect(parseSeedMaps('woods,woods')).toEqual(['woods']);
  });

  it('refuses a DATA_DIR or TILES_DIR on /proc or /sys (a recursive mkdir there hangs), naming it', () => {
    expect(() => loadConfig({ DATA_DIR: '/proc/x' })).toThrow(/^DATA_DIR: \/proc\/x is on the kernel's \/proc file system/);
    expect(() => loadConfig({ DATA_DIR: '../../../../../../../sys/data' }, '/app')).toThrow(/^DATA_DIR: \/sys\/data/);
    expect(() => loadConfig({ TILES_DIR: '/proc' })).toThrow(/^TILES_DIR: /);
    // A name that only begins like one is a folder like any other.
    expect(loadConfig({ DATA_DIR: '/processing/data' }).dataDir).toBe('/processing/data');
  });

  it('has the documented time-outs, cap, log level and no metrics token by default', () => {
    const c = loadConfig({}, '/srv/raidmap');
    expect(c.limits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 10_000,
      connectionTimeoutMs: 30_000,
      checkIntervalMs: 1_000,
      maxConnectionsPerAddress: 64,
    });
    expect(c.limits).toEqual(DEFAULT_CONNECTION_LIMITS);
    expect(c.security).toEqual({ imgOrigins: [], overlayFrameAncestors: [] });
    expect(c.logLevel).toBe('warn');
    expect(c.metricsToken).toBeUndefined();
  });

  it('reads the time-outs, the cap, the CSP extras, the log level and the metrics token', () => {
    const token = 'f'.repeat(64);
    const c = loadConfig({
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '4000',
      CONNECTION_TIMEOUT_MS: '0',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      VITE_CDN_BASE: 'https://cdn.example.com/raidmap',
      OVERLAY_FRAME_ANCESTORS: "'self' https://dashboard.twitch.tv",
      LOG_LEVEL: 'INFO',
      METRICS_TOKEN: ` ${token} `,
    });
    expect(c.limits).toMatchObject({ headersTimeoutMs: 5_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 4_000, connectionTimeoutMs: 0, maxConnectionsPerAddress: 0 });
    expect(c.security).toEqual({ imgOrigins: ['https://cdn.example.com'], overlayFrameAncestors: ["'self'", 'https://dashboard.twitch.tv'] });
    expect(c.logLevel).toBe('info');
    expect(c.metricsToken).toBe(token);
    expect(loadConfig({ LOG_REQUESTS: '1' }).logLevel).toBe('info');
    expect(loadConfig({ LOG_REQUESTS: '1', LOG_LEVEL: 'error' }).logLevel).toBe('error');
    expect(loadConfig({ VITE_CDN_BASE: '/static' }).security.imgOrigins).toEqual([]);
  });

  it('names the bad time-out, cap, CSP, log or token setting', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ HEADERS_TIMEOUT_MS: 'soon' }, /^HEADERS_TIMEOUT_MS: expected a whole number/],
      [{ REQUEST_TIMEOUT_MS: '-1' }, /^REQUEST_TIMEOUT_MS:/],
      [{ KEEP_ALIVE_TIMEOUT_MS: '0' }, /^KEEP_ALIVE_TIMEOUT_MS: must be at least 1/],
      [{ CONNECTION_TIMEOUT_MS: '1.5' }, /^CONNECTION_TIMEOUT_MS:/],
      [{ MAX_CONNECTIONS_PER_ADDRESS: 'lots' }, /^MAX_CONNECTIONS_PER_ADDRESS:/],
      [{ HEADERS_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '20000' }, /^HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/],
      [{ OVERLAY_FRAME_ANCESTORS: "https://a.com; script-src 'unsafe-inline'" }, /^OVERLAY_FRAME_ANCESTORS:/],
      [{ VITE_CDN_BASE: 'ftp://cdn' }, /^VITE_CDN_BASE:/],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent/],
      [{ LOG_REQUESTS: 'maybe' }, /^LOG_REQUESTS:/],
      [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN: expected 32 to 256/],
      [{ METRICS_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` }, /^METRICS_TOKEN:/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });

  it('trusts no proxy by default, and only the proxies TRUST_PROXY names', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,::1, fd00::/8, loopback ' })).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['true', '*', '2', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/1', 'proxy.example', '1.2.3']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

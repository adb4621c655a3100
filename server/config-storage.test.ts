/** Settings of the tile cache and the upload sweeper (issue 9, defects 3 and 7; docs/SERVER.md). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('tile cache and upload settings', () => {
  it('have the documented defaults', () => {
    const config = loadConfig({});
    expect(config.tileCache).toEqual({ maxBytes: 2048 * 1024 * 1024, memoryBytes: 64 * 1024 * 1024, rendersPerMinute: 60 });
    expect(config.uploadRetentionMs).toBe(24 * 3_600_000);
  });

  it('are read from TILE_CACHE_MAX_MB, TILE_MEMORY_MB, TILE_RENDERS_PER_MINUTE and UPLOAD_RETENTION_HOURS', () => {
    const config = loadConfig({ TILE_CACHE_MAX_MB: '512', TILE_MEMORY_MB: '0', TILE_RENDERS_PER_MINUTE: '0', UPLOAD_RETENTION_HOURS: '168' });
    expect(config.tileCache).toEqual({ maxBytes: 512 * 1024 * 1024, memoryBytes: 0, rendersPerMinute: 0 });
    expect(config.uploadRetentionMs).toBe(7 * 24 * 3_600_000);
  });

  it('name the bad variable', () => {
    for (const [env, name] of [
      [{ TILE_CACHE_MAX_MB: 'lots' }, 'TILE_CACHE_MAX_MB'],
      [{ TILE_CACHE_MAX_MB: '-1' }, 'TILE_CACHE_MAX_MB'],
      [{ TILE_RENDERS_PER_MINUTE: '1.5' }, 'TILE_RENDERS_PER_MINUTE'],
      [{ TILE_MEMORY_MB: 'half' }, 'TILE_MEMORY_MB'],
      [{ TILE_MEMORY_MB: '100000' }, 'TILE_MEMORY_MB'],
      [{ UPLOAD_RETENTION_HOURS: '100000' }, 'UPLOAD_RETENTION_HOURS'],
    ] as const) {
      expect(() => loadConfig(env), name).toThrow(ConfigError);
      expect(() => loadConfig(env), name).toThrow(new RegExp(`^${name}: expected a whole number`));
    }
  });
});

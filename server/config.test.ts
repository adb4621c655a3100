import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAP_IDS } from '../src/domain/maps';
import { ConfigError, loadConfig, parseSeedMaps } from './config';

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
});

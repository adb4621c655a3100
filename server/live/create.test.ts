import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { createLiveHub, liveHubReady } from './create';
import { MemoryLiveHub } from './hub';
import { PgLiveHub } from './pg-hub';

const url = process.env.TEST_DATABASE_URL;
const quiet = { warn: () => {}, error: () => {} };

describe('createLiveHub', () => {
  it('is in-process on SQLite, and ready at once', async () => {
    const hub = createLiveHub({ databaseUrl: undefined, log: quiet });
    expect(hub).toBeInstanceOf(MemoryLiveHub);
    expect(await liveHubReady(hub, 10)).toBe(true);
    await hub.close();
  });

  it('listens on PostgreSQL when DATABASE_URL names it, on a channel of its schema', async () => {
    // Port 1 refuses: the hub keeps retrying and is not ready within the wait.
    const hub = createLiveHub({ databaseUrl: 'postgres://u:p@127.0.0.1:1/db', schema: 'site_b', log: quiet });
    try {
      expect(hub).toBeInstanceOf(PgLiveHub);
      expect((hub as PgLiveHub).pgChannel).toBe('raidmap_live_site_b');
      expect(await liveHubReady(hub, 200)).toBe(false);
    } finally {
      await hub.close();
    }
  });

  it.skipIf(!url)('is ready once its LISTEN is in place (needs TEST_DATABASE_URL)', async () => {
    const hub = createLiveHub({ databaseUrl: url, log: quiet });
    try {
      expect(await liveHubReady(hub, 5000)).toBe(true);
      expect((hub as PgLiveHub).listening).toBe(true);
    } finally {
      await hub.close();
    }
  });
});

describe('DATABASE_SCHEMA', () => {
  it('selects a PostgreSQL schema, and is refused without DATABASE_URL or when not an identifier', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_SCHEMA: 'site_b' }).databaseSchema).toBe('site_b');
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db' }).databaseSchema).toBeUndefined();
    expect(() => loadConfig({ DATABASE_SCHEMA: 'site_b' })).toThrow(/DATABASE_SCHEMA: only applies to PostgreSQL/);
    for (const bad of ['Site', 'a-b', '1abc', 'x;drop', 'a'.repeat(64)]) {
      expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_SCHEMA: bad })).toThrow(ConfigError);
    }
  });
});

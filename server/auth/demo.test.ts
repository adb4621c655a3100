import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { testBackends } from '../testing/databases';
import { createDemoAccounts } from './demo';
import { verifyPassword } from './password';

describe('DEMO_ACCOUNTS setting', () => {
  it('is on by default and turned off by 0', () => {
    expect(loadConfig({}).demoAccounts).toBe(true);
    expect(loadConfig({ DEMO_ACCOUNTS: '0' }).demoAccounts).toBe(false);
    expect(loadConfig({ DEMO_ACCOUNTS: 'off' }).demoAccounts).toBe(false);
    expect(() => loadConfig({ DEMO_ACCOUNTS: 'maybe' })).toThrow(/DEMO_ACCOUNTS/);
  });
});

describe.each(testBackends())('demo accounts on $name', (backend) => {
  let db: Db;
  let repos: Repositories;
  beforeAll(async () => {
    db = await backend.open();
    await migrateToLatest(db);
    repos = createRepositories(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it('are refused in production, skipped when off, and created once otherwise', async () => {
    const warn = vi.fn();
    const log = vi.fn();
    expect(await createDemoAccounts(repos, { enabled: true, nodeEnv: 'production', warn, log })).toBe('refused-production');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/production/));
    expect(await createDemoAccounts(repos, { enabled: false, warn, log })).toBe('disabled');
    expect(await repos.users.count()).toBe(0);

    expect(await createDemoAccounts(repos, { enabled: true, nodeEnv: 'development', warn, log })).toBe('created');
    const users = await repos.users.list();
    expect(users.map((u) => [u.name, u.pro, u.admin])).toEqual([['admin', false, true], ['pro', true, false], ['visitor', false, false]]);
    for (const user of users) expect(await verifyPassword('demo', user.passwordHash)).toBe(true);

    expect(await createDemoAccounts(repos, { enabled: true, warn, log })).toBe('users-exist');
    expect(await repos.users.count()).toBe(3);
  });
});

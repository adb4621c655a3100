import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../testing/databases';
import { createRepositories, migrateToLatest, UserNameTakenError, type Db, type Repositories } from './index';

describe.each(testBackends())('users and sessions on $name', (backend) => {
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

  it('creates users with names unique regardless of case', async () => {
    const user = await repos.users.create({ name: 'Alice', passwordHash: 'x', pro: true });
    expect(user).toMatchObject({ name: 'Alice', pro: true, admin: false, questsDone: [], questsHidden: [] });
    await expect(repos.users.create({ name: 'alice', passwordHash: 'y' })).rejects.toBeInstanceOf(UserNameTakenError);
    expect((await repos.users.getByName('ALICE'))?.id).toBe(user.id);
    const updated = await repos.users.setProgress(user.id, { questsDone: ['q1', 'q1', 'q2'] });
    expect(updated?.questsDone).toEqual(['q1', 'q2']);
    expect((await repos.users.setFlags(user.id, { admin: true }))?.admin).toBe(true);
    expect(await repos.users.count()).toBe(1);
  });

  it('stores, expires and purges sessions', async () => {
    const user = await repos.users.create({ name: 'bob', passwordHash: 'x' });
    const past = new Date(Date.now() - 1000).toISOString();
    const now = new Date().toISOString();
    await repos.sessions.create({ id: 'a'.repeat(64), userId: user.id, createdAt: now, expiresAt: past, lastSeenAt: now });
    await repos.sessions.create({ id: 'b'.repeat(64), userId: user.id, createdAt: now, expiresAt: '2999-01-01T00:00:00.000Z', lastSeenAt: now });
    expect(await repos.sessions.purgeExpired(now)).toBe(1);
    expect(await repos.sessions.get('a'.repeat(64))).toBeUndefined();
    expect((await repos.sessions.get('b'.repeat(64)))?.userId).toBe(user.id);
    expect(await repos.sessions.removeForUser(user.id)).toBe(1);
    expect(await repos.sessions.get('b'.repeat(64))).toBeUndefined();
  });

  it('changes a password hash, counts admins and removes an account with its sessions', async () => {
    const carol = await repos.users.create({ name: 'carol', passwordHash: 'old', admin: true });
    const dave = await repos.users.create({ name: 'dave', passwordHash: 'x' });
    const admins = await repos.users.countAdmins();
    expect(admins).toBeGreaterThanOrEqual(1);
    expect((await repos.users.setPasswordHash(carol.id, 'new'))?.passwordHash).toBe('new');
    expect((await repos.users.getById(dave.id))?.passwordHash).toBe('x');
    const now = new Date().toISOString();
    await repos.sessions.create({ id: 'c'.repeat(64), userId: carol.id, createdAt: now, expiresAt: '2999-01-01T00:00:00.000Z', lastSeenAt: now });
    await repos.sessions.create({ id: 'd'.repeat(64), userId: dave.id, createdAt: now, expiresAt: '2999-01-01T00:00:00.000Z', lastSeenAt: now });
    expect(await repos.users.remove(carol.id)).toBe(true);
    expect(await repos.users.remove(carol.id)).toBe(false);
    expect(await repos.users.getByName('carol')).toBeUndefined();
    expect(await repos.sessions.get('c'.repeat(64))).toBeUndefined();
    expect((await repos.sessions.get('d'.repeat(64)))?.userId).toBe(dave.id);
    expect(await repos.users.countAdmins()).toBe(admins - 1);
  });
});

/**
 * POST /api/be/auth/login and /register: the name is trimmed (the password never is), and a
 * sign-in too long to match any account is refused like a wrong one — never a 400 in English
 * that the page would show inside a sentence of its own language.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../app';
import { hashPassword } from '../auth/password';
import { createRepositories, migrateToLatest, type Db } from '../db';
import { tempDir, testBackends } from '../testing/databases';

describe.each(testBackends())('auth routes on $name', (backend) => {
  let app: FastifyInstance;
  let db: Db;
  let root: string;

  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    root = tempDir();
    db = await backend.open();
    await migrateToLatest(db);
    const repos = createRepositories(db);
    app = buildServer({ db, repos, uploadsDir: path.join(root, 'uploads'), tiles: false, distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets'), auth: { sleep: async () => {} } });
    await app.ready();
    await repos.users.create({ name: 'pro1', passwordHash: await hashPassword('password1'), pro: true });
    await repos.users.create({ name: 'spacey', passwordHash: await hashPassword(' padded pass '), pro: false });
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('signs in with spaces pasted around the name, in any case', async () => {
    const res = await post('/api/be/auth/login', { name: '  PRO1  ', password: 'password1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.name).toBe('pro1');
  });

  it('never trims the password', async () => {
    expect((await post('/api/be/auth/login', { name: 'spacey', password: 'padded pass' })).statusCode).toBe(401);
    expect((await post('/api/be/auth/login', { name: 'spacey', password: ' padded pass ' })).statusCode).toBe(200);
  });

  it('refuses a name or password longer than any account\'s as a wrong sign-in (401), not with a 400', async () => {
    const wrong = await post('/api/be/auth/login', { name: 'pro1', password: 'not-the-password' });
    const longName = await post('/api/be/auth/login', { name: 'a'.repeat(250), password: 'password1' });
    const longPassword = await post('/api/be/auth/login', { name: 'pro1', password: 'p'.repeat(250) });
    expect(wrong.statusCode).toBe(401);
    expect(longName.statusCode).toBe(401);
    expect(longPassword.statusCode).toBe(401);
    expect(longName.json()).toEqual(wrong.json());
    expect(longPassword.json()).toEqual(wrong.json());
  });

  it('still answers 400 for a body that is not two strings', async () => {
    expect((await post('/api/be/auth/login', { name: 5, password: 'password1' })).statusCode).toBe(400);
    expect((await post('/api/be/auth/login', [1, 2])).statusCode).toBe(400);
  });

  it('creates the account under the trimmed name, and finds a taken name through the spaces', async () => {
    const res = await post('/api/be/auth/register', { name: ' spaced ', password: 'granite-Meadow-58' });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.name).toBe('spaced');
    const taken = await post('/api/be/auth/register', { name: '  PRO1 ', password: 'granite-Meadow-58' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('the name "PRO1" is taken');
    // Inner spaces are still no part of a name.
    expect((await post('/api/be/auth/register', { name: 'bad name', password: 'granite-Meadow-58' })).statusCode).toBe(400);
  });
});

/**
 * A server for one describe block of a permission matrix: a fresh database of the backend, the
 * app built on it with the block's options, and the visitor, pro and admin accounts signed in.
 * Made in `beforeAll`, closed (and its folder removed) in `afterAll`; read its fields in tests.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildServer, type BuildServerOptions } from '../app';
import { createRepositories, migrateToLatest, type Db, type Repositories } from '../db';
import { signInRoles, type RoleCookies } from './accounts';
import { tempDir, type TestBackend } from './databases';

export interface RoleApp {
  app: FastifyInstance;
  db: Db;
  repos: Repositories;
  /** A temp folder of the block's own (for dist, assets, tiles, uploads). */
  root: string;
  cookies: RoleCookies;
}

export interface RoleAppOptions {
  /** Stored before the server is built (its caches then start with it). */
  seed?: (repos: Repositories) => Promise<void>;
}

export function useRoleApp(
  backend: TestBackend,
  serverOptions: (root: string) => Omit<BuildServerOptions, 'db' | 'repos'>,
  options: RoleAppOptions = {},
): RoleApp {
  const ctx = {} as RoleApp;
  beforeAll(async () => {
    ctx.root = tempDir();
    ctx.db = await backend.open();
    await migrateToLatest(ctx.db);
    ctx.repos = createRepositories(ctx.db);
    await options.seed?.(ctx.repos);
    ctx.app = buildServer({ db: ctx.db, repos: ctx.repos, ...serverOptions(ctx.root) });
    await ctx.app.ready();
    ctx.cookies = await signInRoles(ctx.app, ctx.repos);
  }, 60_000);
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.db?.close();
    if (ctx.root) fs.rmSync(ctx.root, { recursive: true, force: true });
  });
  return ctx;
}

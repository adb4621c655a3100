import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { verifyPassword } from '../server/auth/password';
import { REPO_ROOT } from '../server/config';
import { createRepositories, migrateToLatest, openDatabase, type Repositories } from '../server/db';
import { tempDir } from '../server/testing/databases';
import { readNewPassword, type PromptInput } from './password-prompt';
import { runUserCommand, type UserCommandIo } from './user';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = tempDir('raidmap-user-');
  dirs.push(dir);
  return dir;
}

/** A terminal-like stdin: isTTY, setRawMode recorded, typed text pushed by the test. */
function fakeTty(...typed: string[]): PromptInput & PassThrough & { setRawMode: ReturnType<typeof vi.fn> } {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: vi.fn() });
  for (const text of typed) input.write(text);
  return input;
}

interface Run {
  code: number;
  out: string;
  err: string;
  prompt: string;
}

async function user(env: NodeJS.ProcessEnv, args: string[], input: PromptInput = new PassThrough()): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  let prompt = '';
  const promptStream = new PassThrough();
  promptStream.on('data', (chunk) => (prompt += String(chunk)));
  if (!input.isTTY && input instanceof PassThrough && !input.writableEnded) input.end();
  const io: UserCommandIo = { input, prompt: promptStream, log: (line) => out.push(line) };
  const code = await runUserCommand(args, { DATABASE_URL: '', DATABASE_SCHEMA: '', ...env }, io, (line) => err.push(line));
  return { code, out: out.join('\n'), err: err.join('\n'), prompt };
}

async function withRepos<T>(dir: string, use: (repos: Repositories) => Promise<T>): Promise<T> {
  const db = openDatabase({ sqliteFile: path.join(dir, 'raidmap.sqlite') });
  try {
    return await use(createRepositories(db));
  } finally {
    await db.close();
  }
}

const FAR = '2999-01-01T00:00:00.000Z';

async function addSession(repos: Repositories, name: string, id: string): Promise<void> {
  const u = (await repos.users.getByName(name))!;
  const now = new Date().toISOString();
  await repos.sessions.create({ id: id.repeat(64), userId: u.id, createdAt: now, expiresAt: FAR, lastSeenAt: now });
}

describe('npm run user: a missing database', () => {
  it('is refused by every command but add, which creates it and says so; a refused add creates nothing', async () => {
    const dir = path.join(dataDir(), 'typo');
    const env = { DATA_DIR: dir };
    const sqliteFile = path.join(dir, 'raidmap.sqlite');
    for (const args of [['list'], ['grant-pro', 'erin'], ['passwd', 'erin', '--password', 'amber-Otter-41'], ['role', 'erin', 'pro'], ['remove', 'erin']]) {
      const res = await user(env, args);
      expect(res, args.join(' ')).toMatchObject({ code: 1, out: '' });
      expect(res.err).toBe(`user: no database at ${sqliteFile}: is DATA_DIR right?`);
      expect(fs.existsSync(dir), args.join(' ')).toBe(false);
    }
    const weak = await user(env, ['add', 'erin', '--password', 'password']);
    expect(weak.code).toBe(2);
    expect(weak.err).toMatch(/^user: password is too easy to guess/);
    expect(fs.existsSync(dir)).toBe(false);

    const added = await user(env, ['add', 'erin', '--password', 'amber-Otter-41']);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toBe(`created a new database at ${sqliteFile}\nadded erin`);
    const again = await user(env, ['add', 'frank', '--password', 'amber-Otter-41']);
    expect(again.out).toBe('added frank');
  }, 60_000);
});

describe('npm run user: accounts', () => {
  const dir = dataDir();
  const env = { DATA_DIR: dir };

  it('answers an unknown user with one line and exit 1, a wrong command line with the usage and exit 2', async () => {
    expect((await user(env, ['add', 'alice', '--admin', '--password', 'amber-Otter-41'])).code).toBe(0);
    for (const args of [['grant-pro', 'nobody'], ['passwd', 'nobody', '--password', 'amber-Otter-41'], ['role', 'nobody', 'pro'], ['remove', 'nobody']]) {
      const res = await user(env, args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.err).toBe('user: no user named "nobody" (npm run user -- list shows them)');
    }
    const taken = await user(env, ['add', 'ALICE', '--password', 'amber-Otter-41']);
    expect(taken).toMatchObject({ code: 1, err: 'user: the name "ALICE" is taken' });
    for (const args of [['frobnicate'], [], ['role', 'alice'], ['role', 'alice', 'king'], ['passwd'], ['remove', 'alice', '--bogus'], ['grant-pro', 'a', 'b']]) {
      const res = await user(env, args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.err, args.join(' ')).toMatch(/^user: .*\n\nusage: npm run user -- <command>/);
    }
  }, 60_000);

  it('sets a new password with the sign-up rule and signs the user out everywhere', async () => {
    expect((await user(env, ['add', 'bob', '--password', 'violet kettle drum'])).code).toBe(0);
    await withRepos(dir, async (repos) => {
      await addSession(repos, 'bob', 'a');
      await addSession(repos, 'bob', 'b');
      await addSession(repos, 'alice', 'c');
    });
    const weak = await user(env, ['passwd', 'bob', '--password', 'bob12345']);
    expect(weak).toMatchObject({ code: 2, err: expect.stringMatching(/^user: password must not contain the account name/) });
    const done = await user(env, ['passwd', 'BOB', '--password', 'quiet-Harbor-93']);
    expect(done).toMatchObject({ code: 0, out: 'bob: password changed; 2 session(s) signed out' });
    await withRepos(dir, async (repos) => {
      const bob = (await repos.users.getByName('bob'))!;
      expect(await verifyPassword('quiet-Harbor-93', bob.passwordHash)).toBe(true);
      expect(await verifyPassword('violet kettle drum', bob.passwordHash)).toBe(false);
      expect(await repos.sessions.get('a'.repeat(64))).toBeUndefined();
      expect(await repos.sessions.get('b'.repeat(64))).toBeUndefined();
      expect(await repos.sessions.get('c'.repeat(64))).toBeDefined();
    });
  }, 60_000);

  it('changes roles, and refuses to remove or demote the last admin without --force', async () => {
    const flags = () => withRepos(dir, async (repos) => Object.fromEntries((await repos.users.list()).map((u) => [u.name, `${u.admin ? 'admin' : ''}${u.pro ? 'pro' : ''}` || '-'])));
    expect(await user(env, ['role', 'bob', 'pro'])).toMatchObject({ code: 0, out: 'bob: now pro' });
    expect((await flags()).bob).toBe('pro');
    expect(await user(env, ['role', 'bob', 'admin'])).toMatchObject({ code: 0, out: 'bob: now an admin' });
    expect((await flags()).bob).toBe('adminpro');
    expect(await user(env, ['role', 'bob', 'visitor'])).toMatchObject({ code: 0, out: 'bob: now a visitor' });
    expect((await flags()).bob).toBe('-');

    // alice is now the only admin.
    const demote = await user(env, ['role', 'alice', 'pro']);
    expect(demote.code).toBe(1);
    expect(demote.err).toBe('user: alice is the only admin: making them pro leaves nobody who can edit the map; add --force to do it anyway, or make another admin first');
    const remove = await user(env, ['remove', 'alice']);
    expect(remove.code).toBe(1);
    expect(remove.err).toMatch(/^user: alice is the only admin: removing them leaves nobody .* add --force/);
    expect((await flags()).alice).toBe('admin');

    // With a second admin, or --force, it is done.
    expect((await user(env, ['make-admin', 'bob'])).code).toBe(0);
    expect(await user(env, ['role', 'alice', 'visitor'])).toMatchObject({ code: 0 });
    expect(await user(env, ['role', 'bob', 'visitor', '--force'])).toMatchObject({ code: 0, out: 'bob: now a visitor' });
    expect(await flags()).toEqual({ alice: '-', bob: '-' });
  }, 60_000);

  it('removes a user with their sessions', async () => {
    await withRepos(dir, (repos) => addSession(repos, 'alice', 'd'));
    // Her session "c" from the password test, and "d".
    expect(await user(env, ['remove', 'Alice'])).toMatchObject({ code: 0, out: 'removed alice; 2 session(s) signed out' });
    await withRepos(dir, async (repos) => {
      expect(await repos.users.getByName('alice')).toBeUndefined();
      expect(await repos.sessions.get('c'.repeat(64))).toBeUndefined();
      expect(await repos.sessions.get('d'.repeat(64))).toBeUndefined();
    });
    expect((await user(env, ['list'])).out).toMatch(/^bob\t-\t/);
  }, 60_000);
});

describe('npm run user: the password prompt', () => {
  it('does not echo on a terminal and asks twice', async () => {
    const input = fakeTty('amber-', 'Otter-41\r', 'amber-Otter-41\r');
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk) => (shown += String(chunk)));
    await expect(readNewPassword(input, output)).resolves.toBe('amber-Otter-41');
    expect(shown).toBe('password: \npassword again: \n');
    expect(input.setRawMode.mock.calls).toEqual([[true], [false], [true], [false]]);
  });

  it('takes a paste of both lines at once, backspace, and refuses two that differ or a cancel', async () => {
    await expect(readNewPassword(fakeTty('amber-Otter-41x\u007f\ramber-Otter-41\r'), new PassThrough())).resolves.toBe('amber-Otter-41');
    await expect(readNewPassword(fakeTty('amber-Otter-41\r', 'amber-Otter-42\r'), new PassThrough())).rejects.toThrow('the two passwords differ: nothing changed');
    await expect(readNewPassword(fakeTty('amb\u0003'), new PassThrough())).rejects.toThrow('cancelled');
  });

  it('reads the first line of a pipe as it is', async () => {
    const input = new PassThrough();
    input.end('violet kettle drum\r\nignored\n');
    await expect(readNewPassword(input, new PassThrough())).resolves.toBe('violet kettle drum');
  });

  it('is used by add and passwd without --password', async () => {
    const env = { DATA_DIR: dataDir() };
    const added = await user(env, ['add', 'carol'], fakeTty('amber-Otter-41\r', 'amber-Otter-41\r'));
    expect(added.code, added.err).toBe(0);
    expect(added.prompt).toBe('password: \npassword again: \n');
    const differ = await user(env, ['passwd', 'carol'], fakeTty('quiet-Harbor-93\r', 'quiet-Harbor-39\r'));
    expect(differ).toMatchObject({ code: 2, err: 'user: the two passwords differ: nothing changed' });
    const changed = await user(env, ['passwd', 'carol'], fakeTty('quiet-Harbor-93\r', 'quiet-Harbor-93\r'));
    expect(changed.code, changed.err).toBe(0);
    const hash = await withRepos(env.DATA_DIR, async (repos) => (await repos.users.getByName('carol'))!.passwordHash);
    expect(await verifyPassword('quiet-Harbor-93', hash)).toBe(true);
  }, 60_000);
});

describe('npm run user as a command', () => {
  it('exits 1 with one line for an unknown user, not a stack or the usage', () => {
    const dir = dataDir();
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'user.ts'), ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', DATABASE_SCHEMA: '' },
        input: '',
        encoding: 'utf8',
      });
    expect(run(['add', 'erin', '--password', 'amber-Otter-41']).status).toBe(0);
    const res = run(['grant-pro', 'nobody']);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe('user: no user named "nobody" (npm run user -- list shows them)\n');
  }, 60_000);
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)(url ? 'npm run user on PostgreSQL with DATABASE_SCHEMA' : 'npm run user on PostgreSQL: skipped, needs TEST_DATABASE_URL', () => {
  it('works in the schema the server uses, and refuses a schema the server never set up', async () => {
    const schema = `fixcli_user_${process.pid}_${Date.now().toString(36)}`;
    const missing = `${schema}_none`;
    // The server's first start in that schema.
    const db = openDatabase({ databaseUrl: url!, pgSchema: schema });
    try {
      await migrateToLatest(db);
      const env = { DATA_DIR: dataDir(), DATABASE_URL: url!, DATABASE_SCHEMA: schema };
      const added = await user(env, ['add', 'dora', '--admin', '--password', 'amber-Otter-41']);
      expect(added, added.err).toMatchObject({ code: 0, out: 'added dora (admin)' });
      expect((await createRepositories(db).users.getByName('dora'))?.admin).toBe(true);
      expect((await user(env, ['list'])).out).toMatch(/^dora\tadmin\t/);

      const none = await user({ ...env, DATABASE_SCHEMA: missing }, ['list']);
      expect(none.code).toBe(1);
      expect(none.err).toMatch(new RegExp(`^user: no database at PostgreSQL .* \\(schema ${missing}\\): are DATABASE_URL and DATABASE_SCHEMA right\\?$`));
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.schemata where schema_name = ${missing}`.execute(db.kysely);
      expect(rows[0].n).toBe(0);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.kysely);
      await sql`drop schema if exists ${sql.id(missing)} cascade`.execute(db.kysely);
      await db.close();
    }
  }, 60_000);
});

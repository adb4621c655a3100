import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { createRepositories, openDatabase } from '../db';
import { tempDir } from '../testing/databases';
import { verifyPassword } from './password';

const dataDir = tempDir('raidmap-cli-');

function cli(args: string[], input?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'user.ts'), ...args], {
    cwd: REPO_ROOT,
    env,
    input: input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run user (scripts/user.ts)', () => {
  it('adds users, grants and revokes pro, makes admins and lists them', async () => {
    expect(cli(['add', 'alice', '--pro', '--password', 'amber-Otter-41'])).toMatchObject({ code: 0 });
    const bob = cli(['add', 'bob', '--admin'], 'violet kettle drum\n');
    expect(bob.code, bob.err).toBe(0);
    expect(cli(['revoke-pro', 'alice']).code).toBe(0);
    expect(cli(['grant-pro', 'BOB']).code).toBe(0);
    expect(cli(['make-admin', 'alice']).code).toBe(0);
    const list = cli(['list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^alice\tadmin\t/m);
    expect(list.out).toMatch(/^bob\tadmin,pro\t/m);

    const db = openDatabase({ sqliteFile: path.join(dataDir, 'raidmap.sqlite') });
    try {
      const users = createRepositories(db).users;
      expect(await verifyPassword('violet kettle drum', (await users.getByName('bob'))!.passwordHash)).toBe(true);
      expect(await verifyPassword('amber-Otter-41', (await users.getByName('alice'))!.passwordHash)).toBe(true);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('fails with a clear message and a non-zero exit for bad input', () => {
    for (const [args, pattern] of [
      [['add', 'alice', '--password', 'quiet-Harbor-93'], /taken/],
      [['add', 'x', '--password', 'quiet-Harbor-93'], /3 to 32/],
      [['add', 'carol', '--password', 'short'], /8 to 200/],
      // The sign-up strength rule, with zxcvbn's reason: common passwords, the name itself.
      [['add', 'carol', '--password', 'password'], /too easy to guess: This is a heavily used password/],
      [['add', 'carol', '--password', '12345678'], /too easy to guess/],
      [['add', 'carol', '--password', 'carol2024!'], /must not contain the account name/],
      [['add', 'carol'], /no password/],
      [['grant-pro', 'nobody'], /no user named "nobody"/],
      [['frobnicate'], /unknown command/],
      [[], /no command/],
      [['add', 'carol', '--bogus'], /unknown option/],
    ] as const) {
      const res = cli([...args]);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.err, args.join(' ')).toMatch(pattern);
    }
  }, 120_000);
});

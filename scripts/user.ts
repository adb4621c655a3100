/**
 * User management: `npm run user -- <command>`. Uses the server's settings (DATA_DIR,
 * DATABASE_URL) and migrates the database first.
 *
 *   add <name> [--admin] [--pro] [--password <password>]   (password read from stdin otherwise;
 *                                                          the sign-up rules apply: not guessable)
 *   grant-pro <name> | revoke-pro <name> | make-admin <name> | list
 */
import readline from 'node:readline';
import { z } from 'zod';
import { passwordVerdictText } from '../src/domain/account';
import { hashPassword } from '../server/auth/password';
import { newPasswordVerdict } from '../server/auth/password-policy';
import { ConfigError, loadConfig } from '../server/config';
import { createRepositories, migrateToLatest, openDatabase, UserNameTakenError, type Repositories } from '../server/db';
import { credentialsSchema } from '../server/routes/auth';

const USAGE = `usage: npm run user -- <command>
  add <name> [--admin] [--pro] [--password <password>]   create a user (password asked on stdin unless --password)
  grant-pro <name>                                       give a user the pro tier
  revoke-pro <name>                                      take the pro tier away
  make-admin <name>                                      make a user an admin
  list                                                   list users`;

class UsageError extends Error {}

async function readPassword(): Promise<string> {
  const input = process.stdin;
  if (input.isTTY) process.stderr.write('password: ');
  const rl = readline.createInterface({ input, terminal: false });
  try {
    for await (const line of rl) return line.replace(/\r$/, '');
    throw new UsageError('no password given on stdin');
  } finally {
    rl.close();
  }
}

function parseAdd(args: string[]): { name: string; admin: boolean; pro: boolean; password?: string } {
  let name: string | undefined;
  let admin = false;
  let pro = false;
  let password: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--admin') admin = true;
    else if (arg === '--pro') pro = true;
    else if (arg === '--password') {
      password = args[++i];
      if (password === undefined) throw new UsageError('--password needs a value');
    } else if (arg.startsWith('--password=')) password = arg.slice('--password='.length);
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (name === undefined) name = arg;
    else throw new UsageError(`unexpected argument ${arg}`);
  }
  if (name === undefined) throw new UsageError('add needs a name');
  return { name, admin, pro, password };
}

function oneName(command: string, args: string[]): string {
  if (args.length !== 1 || args[0].startsWith('-')) throw new UsageError(`${command} needs exactly one name`);
  return args[0];
}

async function run(repos: Repositories, command: string, args: string[]): Promise<void> {
  const flag = async (name: string, flags: { pro?: boolean; admin?: boolean }, done: string) => {
    const user = await repos.users.getByName(name);
    if (!user) throw new UsageError(`no user named "${name}"`);
    await repos.users.setFlags(user.id, flags);
    console.log(`${user.name}: ${done}`);
  };
  switch (command) {
    case 'add': {
      const options = parseAdd(args);
      const password = options.password ?? (await readPassword());
      const parsed = credentialsSchema.safeParse({ name: options.name, password });
      if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'bad name or password');
      // The same strength rule as sign-up (the demo accounts' "demo" is made by the seeding only).
      const verdict = await newPasswordVerdict(password, options.name);
      if (verdict) throw new UsageError(passwordVerdictText(verdict));
      try {
        const user = await repos.users.create({ name: options.name, passwordHash: await hashPassword(password), pro: options.pro, admin: options.admin });
        console.log(`added ${user.name}${user.admin ? ' (admin)' : ''}${user.pro ? ' (pro)' : ''}`);
      } catch (error) {
        if (error instanceof UserNameTakenError) throw new UsageError(error.message);
        throw error;
      }
      return;
    }
    case 'grant-pro':
      return flag(oneName(command, args), { pro: true }, 'pro granted');
    case 'revoke-pro':
      return flag(oneName(command, args), { pro: false }, 'pro revoked');
    case 'make-admin':
      return flag(oneName(command, args), { admin: true }, 'now an admin');
    case 'list': {
      if (args.length > 0) throw new UsageError('list takes no arguments');
      const users = await repos.users.list();
      if (users.length === 0) console.log('no users');
      for (const u of users) console.log(`${u.name}\t${[u.admin && 'admin', u.pro && 'pro'].filter(Boolean).join(',') || '-'}\t${u.createdAt}`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<number> {
  const [command = '', ...args] = process.argv.slice(2);
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`user: bad setting ${error.message}`);
      return 2;
    }
    throw error;
  }
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  try {
    await migrateToLatest(db);
    await run(createRepositories(db), command, args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`user: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error('user: failed:', error instanceof z.ZodError ? error.message : error);
    return 1;
  } finally {
    await db.close();
  }
}

main().then((code) => process.exit(code));

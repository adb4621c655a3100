/**
 * User management: `npm run user -- <command>`. Uses the server's settings (DATA_DIR,
 * DATABASE_URL, DATABASE_SCHEMA: scripts/settings.ts) and migrates the database first. Only
 * `add` may create a database (and says so); every other command refuses a missing one.
 *
 *   add <name> [--admin] [--pro] [--password <password>]   new passwords follow the sign-up rule
 *   passwd <name> [--password <password>]                   a new password; ends the user's sessions
 *   role <name> admin|pro|visitor [--force]                 the account's role
 *   remove <name> [--force]                                 deletes the account and its sessions
 *   grant-pro <name> | revoke-pro <name> | make-admin <name> | list
 *
 * Without --password the password is read from the terminal (no echo, asked twice) or the first
 * line of stdin. Removing or demoting the last admin needs --force. Exit codes: 2 for a command
 * line that is wrong or a name or password the rules refuse, 1 for anything else (an unknown
 * user, a name taken, no database, the last admin), 0 when done.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { passwordVerdictText } from '../src/domain/account';
import type { Role } from '../src/domain/roles';
import { hashPassword } from '../server/auth/password';
import { newPasswordVerdict } from '../server/auth/password-policy';
import { createRepositories, migrateToLatest, UserNameTakenError, type Repositories, type User } from '../server/db';
import { credentialsSchema } from '../server/routes/auth';
import { PromptError, readNewPassword, type PromptInput } from './password-prompt';
import { ConfigError, MissingDatabaseError, describeDatabase, loadSettings, openSiteDatabase } from './settings';

const USAGE = `usage: npm run user -- <command>
  add <name> [--admin] [--pro] [--password <password>]   create a user
  passwd <name> [--password <password>]                  set a new password and sign the user out
  role <name> admin|pro|visitor [--force]                change the user's role
  remove <name> [--force]                                delete the user and sign them out
  grant-pro <name>                                       give a user the pro tier
  revoke-pro <name>                                      take the pro tier away
  make-admin <name>                                      make a user an admin
  list                                                   list users
Without --password the password is asked on the terminal (twice, not shown) or read from stdin.
Removing or demoting the last admin needs --force.`;

const ROLES: readonly Role[] = ['admin', 'pro', 'visitor'];

/** The command line is wrong: exit 2 with the usage. */
class UsageError extends Error {}
/** A name or password the rules refuse: exit 2, one line. */
class InputError extends Error {}
/** Anything else that stops the command (an unknown user, the last admin): exit 1, one line. */
class CommandError extends Error {}

interface Parsed {
  names: string[];
  flags: Set<string>;
  password?: string;
}

/** Positional names, the allowed flags and --password (only where `withPassword`). */
function parseArgs(command: string, args: string[], allowed: readonly string[], withPassword = false): Parsed {
  const parsed: Parsed = { names: [], flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (withPassword && arg === '--password') {
      parsed.password = args[++i];
      if (parsed.password === undefined) throw new UsageError('--password needs a value');
    } else if (withPassword && arg.startsWith('--password=')) parsed.password = arg.slice('--password='.length);
    else if (allowed.includes(arg)) parsed.flags.add(arg);
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg} for ${command}`);
    else parsed.names.push(arg);
  }
  return parsed;
}

function exactly(command: string, parsed: Parsed, count: number, what: string): string[] {
  if (parsed.names.length !== count) throw new UsageError(`${command} needs ${what}`);
  return parsed.names;
}

/** The sign-up rules for a new password of `name` (length, then zxcvbn's strength rule). */
async function checkNewPassword(name: string, password: string): Promise<void> {
  const parsed = credentialsSchema.safeParse({ name, password });
  if (!parsed.success) throw new InputError(parsed.error.issues[0]?.message ?? 'bad name or password');
  // The same strength rule as sign-up (the demo accounts' "demo" is made by the seeding only).
  const verdict = await newPasswordVerdict(password, name);
  if (verdict) throw new InputError(passwordVerdictText(verdict));
}

export interface UserCommandIo {
  input: PromptInput;
  prompt: NodeJS.WritableStream;
  log(line: string): void;
}

async function newPassword(io: UserCommandIo, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  try {
    return await readNewPassword(io.input, io.prompt);
  } catch (error) {
    if (error instanceof PromptError) throw new InputError(error.message);
    throw error;
  }
}

async function findUser(repos: Repositories, name: string): Promise<User> {
  const user = await repos.users.getByName(name);
  if (!user) throw new CommandError(`no user named "${name}" (npm run user -- list shows them)`);
  return user;
}

/** Refuses to take the admin role from the last admin unless forced: nobody could edit markers or make admins from the site. */
async function guardLastAdmin(repos: Repositories, user: User, force: boolean, doing: string): Promise<void> {
  if (!user.admin || force) return;
  if ((await repos.users.countAdmins()) > 1) return;
  throw new CommandError(`${user.name} is the only admin: ${doing} leaves nobody who can edit the map; add --force to do it anyway, or make another admin first`);
}

/** Commands on an opened, migrated database. */
async function runOnDatabase(repos: Repositories, io: UserCommandIo, command: string, args: string[], addPassword?: string): Promise<void> {
  const flag = async (name: string, flags: { pro?: boolean; admin?: boolean }, done: string) => {
    const user = await findUser(repos, name);
    await repos.users.setFlags(user.id, flags);
    io.log(`${user.name}: ${done}`);
  };
  switch (command) {
    case 'add': {
      const parsed = parseArgs(command, args, ['--admin', '--pro'], true);
      const [name] = parsed.names;
      try {
        const user = await repos.users.create({ name, passwordHash: await hashPassword(addPassword!), pro: parsed.flags.has('--pro'), admin: parsed.flags.has('--admin') });
        io.log(`added ${user.name}${user.admin ? ' (admin)' : ''}${user.pro ? ' (pro)' : ''}`);
      } catch (error) {
        if (error instanceof UserNameTakenError) throw new CommandError(error.message);
        throw error;
      }
      return;
    }
    case 'passwd':
    case 'reset-password': {
      const parsed = parseArgs(command, args, [], true);
      const [name] = exactly(command, parsed, 1, 'one name');
      const user = await findUser(repos, name);
      const password = await newPassword(io, parsed.password);
      await checkNewPassword(user.name, password);
      await repos.users.setPasswordHash(user.id, await hashPassword(password));
      const ended = await repos.sessions.removeForUser(user.id);
      io.log(`${user.name}: password changed; ${ended} session(s) signed out`);
      return;
    }
    case 'role': {
      const parsed = parseArgs(command, args, ['--force']);
      const [name, role] = exactly(command, parsed, 2, `a name and a role (${ROLES.join(', ')})`);
      if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`unknown role "${role}": expected ${ROLES.join(', ')}`);
      const user = await findUser(repos, name);
      if (role !== 'admin') await guardLastAdmin(repos, user, parsed.flags.has('--force'), `making them ${role}`);
      // admin keeps the pro flag as it is (admin wins over pro: src/domain/roles.ts); pro and visitor set both.
      const flags = role === 'admin' ? { admin: true } : { admin: false, pro: role === 'pro' };
      await repos.users.setFlags(user.id, flags);
      io.log(`${user.name}: now ${role === 'admin' ? 'an admin' : role === 'pro' ? 'pro' : 'a visitor'}`);
      return;
    }
    case 'remove': {
      const parsed = parseArgs(command, args, ['--force']);
      const [name] = exactly(command, parsed, 1, 'one name');
      const user = await findUser(repos, name);
      await guardLastAdmin(repos, user, parsed.flags.has('--force'), 'removing them');
      const ended = await repos.sessions.removeForUser(user.id);
      await repos.users.remove(user.id);
      io.log(`removed ${user.name}; ${ended} session(s) signed out`);
      return;
    }
    case 'grant-pro':
      return flag(exactly(command, parseArgs(command, args, []), 1, 'one name')[0], { pro: true }, 'pro granted');
    case 'revoke-pro':
      return flag(exactly(command, parseArgs(command, args, []), 1, 'one name')[0], { pro: false }, 'pro revoked');
    case 'make-admin':
      return flag(exactly(command, parseArgs(command, args, []), 1, 'one name')[0], { admin: true }, 'now an admin');
    case 'list': {
      if (args.length > 0) throw new UsageError('list takes no arguments');
      const users = await repos.users.list();
      if (users.length === 0) io.log('no users');
      for (const u of users) io.log(`${u.name}\t${[u.admin && 'admin', u.pro && 'pro'].filter(Boolean).join(',') || '-'}\t${u.createdAt}`);
      return;
    }
  }
}

const COMMANDS = ['add', 'passwd', 'reset-password', 'role', 'remove', 'grant-pro', 'revoke-pro', 'make-admin', 'list'];

/** Runs one command; returns the exit code. Messages go to io.log (stdout) and `error` (stderr). */
export async function runUserCommand(argv: string[], env: NodeJS.ProcessEnv, io: UserCommandIo, error: (line: string) => void): Promise<number> {
  const [command = '', ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.log(USAGE);
    return 0;
  }
  try {
    if (!COMMANDS.includes(command)) throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
    const config = loadSettings(env);
    // `add` checks its name and password before the database is opened (and perhaps created):
    // a refused add leaves nothing behind.
    let addPassword: string | undefined;
    if (command === 'add') {
      const parsed = parseArgs(command, args, ['--admin', '--pro'], true);
      if (parsed.names.length === 0) throw new UsageError('add needs a name');
      const [name] = exactly(command, parsed, 1, 'one name');
      // The name's form first: no point asking for a password of a name that cannot be.
      const nameCheck = credentialsSchema.shape.name.safeParse(name);
      if (!nameCheck.success) throw new InputError(nameCheck.error.issues[0]?.message ?? 'bad name');
      addPassword = await newPassword(io, parsed.password);
      await checkNewPassword(name, addPassword);
    }
    const { db, created } = await openSiteDatabase(config, { create: command === 'add' });
    try {
      await migrateToLatest(db);
      if (created) io.log(`created a new database at ${describeDatabase(config)}`);
      await runOnDatabase(createRepositories(db), io, command, args, addPassword);
    } finally {
      await db.close();
    }
    return 0;
  } catch (caught) {
    if (caught instanceof UsageError) {
      error(`user: ${caught.message}\n\n${USAGE}`);
      return 2;
    }
    if (caught instanceof InputError) {
      error(`user: ${caught.message}`);
      return 2;
    }
    if (caught instanceof ConfigError) {
      error(`user: bad setting ${caught.message}`);
      return 2;
    }
    if (caught instanceof CommandError || caught instanceof MissingDatabaseError) {
      error(`user: ${caught.message}`);
      return 1;
    }
    // A database that cannot be reached or migrated: its message, not a stack.
    error(`user: failed: ${caught instanceof Error ? caught.message : String(caught)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const io: UserCommandIo = { input: process.stdin, prompt: process.stderr, log: (line) => console.log(line) };
  runUserCommand(process.argv.slice(2), process.env, io, (line) => console.error(line)).then((code) => process.exit(code));
}

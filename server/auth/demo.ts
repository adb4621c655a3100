/**
 * Demo accounts for the sample set-up: `visitor`, `pro` (pro) and `admin` (admin), each with
 * the password `demo`. Created only into an empty users table, only when DEMO_ACCOUNTS is on,
 * and never when NODE_ENV=production.
 */
import type { Repositories } from '../db';
import { hashPassword } from './password';

export const DEMO_PASSWORD = 'demo';
export const DEMO_USERS = [
  { name: 'visitor', pro: false, admin: false },
  { name: 'pro', pro: true, admin: false },
  { name: 'admin', pro: false, admin: true },
] as const;

export type DemoResult = 'created' | 'disabled' | 'users-exist' | 'refused-production';

export async function createDemoAccounts(
  repos: Repositories,
  options: { enabled: boolean; nodeEnv?: string; log?: (message: string) => void; warn?: (message: string) => void },
): Promise<DemoResult> {
  const log = options.log ?? console.log;
  const warn = options.warn ?? console.warn;
  if (!options.enabled) return 'disabled';
  if ((await repos.users.count()) > 0) return 'users-exist';
  if (options.nodeEnv === 'production') {
    warn('DEMO_ACCOUNTS is on but NODE_ENV=production: not creating the demo accounts (set DEMO_ACCOUNTS=0 and add users with `npm run user -- add`)');
    return 'refused-production';
  }
  for (const user of DEMO_USERS) {
    await repos.users.create({ name: user.name, passwordHash: await hashPassword(DEMO_PASSWORD), pro: user.pro, admin: user.admin });
  }
  log(`created demo accounts ${DEMO_USERS.map((u) => u.name).join(', ')} (password "${DEMO_PASSWORD}"); set DEMO_ACCOUNTS=0 in production`);
  return 'created';
}

/**
 * Accounts (docs/SERVER.md "Accounts and permissions"): sign up, sign in, sign out, the
 * current user, and saving quest progress. The session itself is an HTTP-only cookie the
 * browser sends; nothing here reads or stores it.
 */
import { ApiError, getJson, sendJson } from './client';

/** The user as `GET /api/be/user` answers it. */
export interface AccountUser {
  name: string;
  pro: boolean;
  admin: boolean;
  questsDone: string[];
  questsHidden: string[];
}

export interface Credentials {
  name: string;
  password: string;
}

function isAccountUser(value: unknown): value is AccountUser {
  const v = value as Partial<AccountUser> | null;
  const strings = (list: unknown) => Array.isArray(list) && list.every((s) => typeof s === 'string');
  return !!v && typeof v.name === 'string' && typeof v.pro === 'boolean' && typeof v.admin === 'boolean' && strings(v.questsDone) && strings(v.questsHidden);
}

function userFrom(path: string, value: unknown): AccountUser {
  if (!isAccountUser(value)) throw new ApiError(path, 200, 'bad_user', 'The server sent a user without name, roles or progress');
  return { name: value.name, pro: value.pro, admin: value.admin, questsDone: [...value.questsDone], questsHidden: [...value.questsHidden] };
}

/** The signed-in user, or null when nobody is (401). Other failures throw ApiError. */
export async function fetchUser(signal?: AbortSignal): Promise<AccountUser | null> {
  try {
    return userFrom('/api/be/user', await getJson<unknown>('/api/be/user', { signal, cache: 'no-store' }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Creates an account and signs it in. 400 (rules; `weak_password` with the reasons), 409 (name taken) and 429 (too many sign-ups) come back as ApiError. */
export async function register(credentials: Credentials): Promise<AccountUser> {
  const body = await sendJson<{ user?: unknown }>('/api/be/auth/register', 'POST', credentials);
  return userFrom('/api/be/auth/register', body?.user);
}

/** Signs in. 401 (wrong name or password) and 429 (too many attempts) come back as ApiError. */
export async function login(credentials: Credentials): Promise<AccountUser> {
  const body = await sendJson<{ user?: unknown }>('/api/be/auth/login', 'POST', credentials);
  return userFrom('/api/be/auth/login', body?.user);
}

export async function logout(): Promise<void> {
  await sendJson<unknown>('/api/be/auth/logout', 'POST', {});
}

/** A change of the progress lists: quest uids to add to and to remove from each. */
export interface ProgressChange {
  done?: { add?: string[]; remove?: string[] };
  hidden?: { add?: string[]; remove?: string[] };
}

/** The change one quest action makes: complete / reopen → done, hide / show → hidden. */
export function questActionChange(action: 'complete' | 'reopen' | 'hide' | 'show', questUid: string): ProgressChange {
  switch (action) {
    case 'complete':
      return { done: { add: [questUid] } };
    case 'reopen':
      return { done: { remove: [questUid] } };
    case 'hide':
      return { hidden: { add: [questUid] } };
    case 'show':
      return { hidden: { remove: [questUid] } };
  }
}

/**
 * Saves a change of the progress and answers the updated user. The server applies it to the
 * lists as stored (docs/SERVER.md "Quest progress"), so a change saved meanwhile on another
 * device stays; a quest that left the quest list since stays in the lists too.
 */
export async function changeProgress(change: ProgressChange): Promise<AccountUser> {
  return userFrom('/api/be/user/progress', await sendJson<unknown>('/api/be/user/progress', 'POST', change));
}

/** An account as the admin list shows it. */
export interface AccountSummary {
  name: string;
  pro: boolean;
  admin: boolean;
}

/** Every account with its roles (admin only; 401/403 come back as ApiError). */
export async function listAccounts(signal?: AbortSignal): Promise<AccountSummary[]> {
  const body = await getJson<{ users?: AccountSummary[] }>('/api/be/admin/users', { signal, cache: 'no-store' });
  return Array.isArray(body?.users) ? body.users : [];
}

/** Grants or revokes pro for one account (admin only) and answers the account as saved. */
export async function setAccountPro(name: string, pro: boolean): Promise<AccountSummary> {
  const body = await sendJson<{ user: AccountSummary }>('/api/be/admin/users/pro', 'POST', { name, pro });
  return body.user;
}

/**
 * The signed-in user and what they may do. `loadSession()` asks the server once per page
 * (GET /api/be/user; 401 means nobody is signed in); sign in, sign up and sign out go through
 * the account API. Quest actions (pro) refresh the user first, apply the domain rule, then
 * save the one list that changed — a visitor gets the upsell and no request is made.
 *
 * Other tabs of the site follow: a sign-in, sign-up, sign-out or saved quest progress here is
 * told to them on a BroadcastChannel (`SESSION_CHANNEL`), and each takes the new user at once
 * (`listenToOtherTabs`, started by `loadSession`), so no tab goes on showing a user who signed
 * out elsewhere, or old progress. The server checks every call anyway; this is what a tab shows.
 */
import { proxy } from 'valtio';
import * as account from '../api/account';
import { ApiError } from '../api/client';
import { hasSignedInHint } from '../domain/account';
import { applyQuestAction, type QuestAction } from '../domain/quests';
import { access, can, roleOf, type Capability, type RoleFlags } from '../domain/roles';
import { openAccountDialog, openUpsell } from './layout';

export interface SessionUser extends RoleFlags {
  /** The account name (empty in tests that only care about roles). */
  name?: string;
  /** Quest uids the user marked done / hidden (spec §3 User). */
  questsDone: string[];
  questsHidden: string[];
}

/** `unknown` until the server answered GET /api/be/user once (the user is treated as a visitor meanwhile). */
export type SessionStatus = 'unknown' | 'loading' | 'ready' | 'error';

export interface SessionState {
  user: SessionUser | null;
  status: SessionStatus;
  /** Quest uid whose action is being saved, or null. */
  pendingQuest: string | null;
  /** Why the last quest action failed (server message), or null. Cleared by the next action. */
  progressError: string | null;
}

export const session = proxy<SessionState>({ user: null, status: 'unknown', pendingQuest: null, progressError: null });

export function setSessionUser(user: SessionUser | null): void {
  session.user = user;
}

/** The channel on which tabs of the site tell each other the signed-in user changed. */
export const SESSION_CHANNEL = 'raidmap:session';

/** What a tab tells the others: the user now signed in (null: nobody). */
export interface SessionMessage {
  type: 'user';
  user: SessionUser | null;
}

let channel: BroadcastChannel | null = null;

function openChannel(): BroadcastChannel | null {
  if (!channel && typeof BroadcastChannel === 'function') channel = new BroadcastChannel(SESSION_CHANNEL);
  return channel;
}

/** Takes the user another tab signed in, out, or saved progress for. Idempotent. */
export function listenToOtherTabs(): void {
  const ch = openChannel();
  if (!ch || ch.onmessage) return;
  ch.onmessage = (event: MessageEvent<SessionMessage>) => {
    const data = event.data;
    if (data?.type !== 'user') return;
    session.user = data.user;
    session.status = 'ready';
    session.progressError = null;
  };
}

/** Tells the other tabs who is signed in now (a copy: the proxy cannot be cloned). */
function tellOtherTabs(user: SessionUser | null): void {
  try {
    openChannel()?.postMessage({ type: 'user', user: user ? (JSON.parse(JSON.stringify(user)) as SessionUser) : null } satisfies SessionMessage);
  } catch (error) {
    console.warn('raidmap: could not tell other tabs about the session', error);
  }
}

/** True for a signed-in pro user (admins are not pro: the role table gives them their own column). */
export function isPro(): boolean {
  return roleOf(session.user) === 'pro';
}

/**
 * True where the free limit of 3 followed quests does not apply: pro users (spec §6), and
 * admins, whose cell the spec leaves "not shown": they place and check markers of any number of
 * quests, and the limit's notice sells pro, which is nothing to them (docs/DECISIONS.md).
 */
export function followsQuestsWithoutLimit(): boolean {
  return access(session.user, 'questsBeyondLimit') !== 'no';
}

/** May the current user use this capability (role table, spec §6)? */
export function sessionCan(capability: Capability): boolean {
  return can(session.user, capability);
}

function message(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

let loading: Promise<void> | null = null;

/** False only when the page can see that nobody is signed in (no signed-in hint cookie). */
function maybeSignedIn(): boolean {
  return typeof document === 'undefined' || hasSignedInHint(document.cookie);
}

/**
 * Asks the server who is signed in, once; later calls reuse the answer. Never throws. Without
 * the signed-in hint cookie (src/domain/account.ts) nobody is, and no request is made.
 */
export function loadSession(): Promise<void> {
  listenToOtherTabs();
  if (session.status === 'ready') return Promise.resolve();
  if (loading) return loading;
  if (!maybeSignedIn()) {
    session.user = null;
    session.status = 'ready';
    return Promise.resolve();
  }
  session.status = 'loading';
  loading = account
    .fetchUser()
    .then((user) => {
      session.user = user;
      session.status = 'ready';
    })
    .catch((error: unknown) => {
      // The server could not say: carry on as a visitor; the next page load asks again.
      session.status = 'error';
      console.warn('raidmap: could not read the signed-in user', error);
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Signs in; throws ApiError with the server's message (wrong name or password, too many attempts). */
export async function signIn(credentials: account.Credentials): Promise<SessionUser> {
  const user = await account.login(credentials);
  session.user = user;
  session.status = 'ready';
  tellOtherTabs(user);
  return user;
}

/** Creates an account and signs it in; throws ApiError (name rules, name taken). */
export async function signUp(credentials: account.Credentials): Promise<SessionUser> {
  const user = await account.register(credentials);
  session.user = user;
  session.status = 'ready';
  tellOtherTabs(user);
  return user;
}

/** Signs out on the server, then forgets the user here even if the server could not be reached. */
export async function signOut(): Promise<void> {
  try {
    await account.logout();
  } finally {
    session.user = null;
    session.status = 'ready';
    session.progressError = null;
    tellOtherTabs(null);
  }
}

export type QuestActionResult = 'saved' | 'upsell' | 'signedOut' | 'notShown' | 'busy' | 'failed';

/**
 * complete / reopen / hide / show a quest (spec §4). A visitor (signed in or not) sees the
 * upsell and nothing is sent; an admin has no such action. For a pro user the user is
 * refreshed from the server first (progress may have changed in another tab), then the
 * changed list is saved and the server's answer becomes the session user.
 */
export async function runQuestAction(action: QuestAction, questUid: string): Promise<QuestActionResult> {
  const rule = access(session.user, 'questProgress');
  if (rule === 'upsell') {
    openUpsell();
    return 'upsell';
  }
  if (rule !== 'yes') return 'notShown';
  if (session.pendingQuest) return 'busy';
  session.pendingQuest = questUid;
  session.progressError = null;
  try {
    const fresh = await account.fetchUser();
    session.user = fresh;
    if (!fresh) {
      // The session ended meanwhile (expired, or signed out elsewhere): sign in again; nothing is saved.
      openAccountDialog('signIn');
      return 'signedOut';
    }
    if (!can(fresh, 'questProgress')) {
      // No longer pro (or now an admin): nothing is saved.
      if (access(fresh, 'questProgress') === 'upsell') openUpsell();
      return 'upsell';
    }
    const next = applyQuestAction(fresh, action, questUid);
    const patch = action === 'complete' || action === 'reopen' ? { questsDone: next.questsDone } : { questsHidden: next.questsHidden };
    session.user = await account.saveProgress(patch);
    tellOtherTabs(session.user);
    return 'saved';
  } catch (error) {
    session.progressError = message(error);
    return 'failed';
  } finally {
    session.pendingQuest = null;
  }
}

export function clearProgressError(): void {
  session.progressError = null;
}

/** Back to a signed-out visitor with nothing asked yet (tests). */
export function resetSession(): void {
  loading = null;
  channel?.close();
  channel = null;
  session.user = null;
  session.status = 'unknown';
  session.pendingQuest = null;
  session.progressError = null;
}

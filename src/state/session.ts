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
 *
 * A session can end without the page signing out (it expired, or was signed out on another
 * device). The browser remembers that someone was signed in (`SIGNED_IN_ROLE_KEY`), so a page
 * that finds nobody signed in where someone was says so and asks for a sign-in (`session.ended`,
 * `session.signInReason`) rather than acting as if a visitor had just arrived; a quest action that
 * finds the session ended asks for a sign-in and is carried out after it (docs/DECISIONS.md).
 *
 * Pro controls used while the page is still asking who is signed in wait for the answer
 * (`tryProFeature`, `sessionCheck`) rather than take a pro user for a visitor; a pro control or a
 * quest action where that question failed asks it again and, failing, says the account could not
 * be checked (`session.uncheckedFeature`, `ACCOUNT_UNCHECKED`) instead of selling pro. Another
 * device's progress is picked up when the tab comes back into view (`refreshProgress`, throttled).
 */
import { proxy } from 'valtio';
import * as account from '../api/account';
import { ApiError } from '../api/client';
import { hasSignedInHint } from '../domain/account';
import type { QuestAction } from '../domain/quests';
import { access, can, roleOf, type Capability, type RoleFlags } from '../domain/roles';
import { closeAccountDialog, openAccountDialog, openUpsell } from './layout';
import { readStored, writeStored } from './storage';

export interface SessionUser extends RoleFlags {
  /** The account name (empty in tests that only care about roles). */
  name?: string;
  /** Quest uids the user marked done / hidden (spec §3 User). */
  questsDone: string[];
  questsHidden: string[];
}

/** `unknown` until the server answered GET /api/be/user once (the user is treated as a visitor meanwhile). */
export type SessionStatus = 'unknown' | 'loading' | 'ready' | 'error';

/**
 * Why the account dialog asks for a sign-in (it says so above the fields): the page found the
 * session of a pro user (`sessionEndedPro`) or of another account (`sessionEnded`) ended, or a
 * quest action found it ended and waits for the sign-in (`saveAction`).
 */
export type SignInReason = 'sessionEnded' | 'sessionEndedPro' | 'saveAction';

export interface SessionState {
  user: SessionUser | null;
  status: SessionStatus;
  /** Quest uid whose action is being saved, or null. */
  pendingQuest: string | null;
  /** Why the last quest action failed (server message), or null. Cleared by the next action. */
  progressError: string | null;
  /**
   * This browser had someone signed in and the page found the session ended (expired, signed out
   * elsewhere). True until a sign-in, or until the user gives up the sign-in it asked for.
   */
  ended: boolean;
  /** Why the open account dialog asks for a sign-in, or null (the user chose to sign in). */
  signInReason: SignInReason | null;
  /**
   * The pro control (Settings, the look arrow) whose use could not learn who is signed in (the
   * server failed to say, twice): it says so with Try again rather than offer pro. Shown only while
   * the status is 'error'; an answer from the server ends it. Null: none.
   */
  uncheckedFeature: Capability | null;
}

export const session = proxy<SessionState>({ user: null, status: 'unknown', pendingQuest: null, progressError: null, ended: false, signInReason: null, uncheckedFeature: null });

/**
 * localStorage: the role of the user last signed in in this browser ('visitor', 'pro', 'admin'),
 * until they sign out. The hint cookie goes with the session (it expires with it), so only this
 * tells a page that someone was signed in when their session is gone.
 */
export const SIGNED_IN_ROLE_KEY = 'account:role';

/** What to do once the sign-in asked for succeeds (the quest action that found the session ended). */
let afterSignIn: (() => void) | null = null;

/** The server says `user` is signed in: remembered for a page that finds the session ended later. */
function rememberSignedIn(user: SessionUser): void {
  writeStored(SIGNED_IN_ROLE_KEY, roleOf(user));
}

/** Opens the sign-in dialog saying why; `then` runs after a successful sign-in (dropped if the user gives up). */
function askToSignIn(reason: SignInReason, then: (() => void) | null = null): void {
  session.signInReason = reason;
  afterSignIn = then;
  openAccountDialog('signIn');
}

/**
 * An admin's change was refused because the session ended (a 401): the sign-in dialog says so
 * ("Sign in to save this"); the editor sends the change again once an admin is signed in
 * (src/ui/map/signInToSave.ts). Nothing waits here: a pending quest action's callback is dropped.
 */
export function askToSignInToSave(): void {
  session.ended = true;
  askToSignIn('saveAction');
}

/**
 * Nobody is signed in: where this browser had someone signed in (and they did not sign out), the
 * session ended behind the page's back. Say so, and ask for a sign-in.
 */
function noticeEndedSession(): void {
  const role = readStored(SIGNED_IN_ROLE_KEY);
  if (role === null) return;
  session.ended = true;
  askToSignIn(role === 'pro' ? 'sessionEndedPro' : 'sessionEnded');
}

/** Someone signed in (here or in another tab): the session is no longer ended, and what waited for it runs. */
function signedInAgain(user: SessionUser): void {
  rememberSignedIn(user);
  session.ended = false;
  session.signInReason = null;
  const then = afterSignIn;
  afterSignIn = null;
  then?.();
}

/**
 * The account dialog closed without a sign-in: what waited for it is dropped, and an ended session
 * the user chose not to sign back into is not announced again (they carry on as a visitor).
 */
export function giveUpSignIn(): void {
  afterSignIn = null;
  if (session.signInReason === null) return;
  session.signInReason = null;
  if (session.ended) {
    session.ended = false;
    writeStored(SIGNED_IN_ROLE_KEY, null);
  }
}

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
    // Signed in over there while this tab asked for a sign-in: nothing left to ask.
    if (data.user && session.signInReason !== null) {
      signedInAgain(data.user);
      closeAccountDialog();
    }
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

/**
 * When this page last asked the server who is signed in, or saved progress (Date.now()); 0: never.
 * Set as a question is asked, answered or not, so the refresh on return is throttled even while
 * the server fails (see refreshProgress).
 */
let lastChecked = 0;
let refreshing = false;
let watchingReturn = false;

/**
 * The question to the server who is signed in, while it is being asked (else null). What a
 * visitor may not do waits on it: meanwhile the user is treated as a visitor, and a pro user who
 * clicked Settings at once would be offered pro (docs/DECISIONS.md "Pro controls before the
 * session is known").
 */
export function sessionCheck(): Promise<void> | null {
  return loading;
}

/**
 * A pro control used (Settings, the look arrow): `allowed` runs where the user may, the upsell
 * opens where the role table says so, nothing happens where the control is not theirs. While
 * the page is still asking who is signed in, this waits for the answer first. Where that question
 * failed, it is asked again (the user may well be pro, as for a quest action): failing again, the
 * control says the account could not be checked (`session.uncheckedFeature`) and offers to try
 * again; finding the session ended, the sign-in it asks for carries the use out.
 */
export async function tryProFeature(capability: Capability, allowed: () => void): Promise<void> {
  // No await before this where nothing is pending: a pro user's click takes effect at once.
  if (loading) await loading;
  if (session.status === 'error' && !session.user) {
    if (!(await checkAgain())) {
      session.uncheckedFeature = capability;
      return;
    }
    if (session.ended) {
      afterSignIn = () => void tryProFeature(capability, allowed);
      return;
    }
  }
  const rule = access(session.user, capability);
  if (rule === 'yes') allowed();
  else if (rule === 'upsell') openUpsell();
}

/** The control that said the account could not be checked was dismissed. */
export function dismissUncheckedFeature(): void {
  session.uncheckedFeature = null;
}

/** The server's answer to who is signed in (GET /api/be/user) taken: null is nobody (an ended session says so). */
function takeServerUser(user: SessionUser | null): void {
  session.user = user;
  session.status = 'ready';
  session.uncheckedFeature = null;
  if (user) rememberSignedIn(user);
  else noticeEndedSession();
}

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
  watchProgressOnReturn();
  if (session.status === 'ready') return Promise.resolve();
  if (loading) return loading;
  if (!maybeSignedIn()) {
    session.user = null;
    session.status = 'ready';
    noticeEndedSession();
    return Promise.resolve();
  }
  session.status = 'loading';
  lastChecked = Date.now();
  loading = account
    .fetchUser()
    .then(takeServerUser)
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
  signedInAgain(user);
  return user;
}

/** Creates an account and signs it in; throws ApiError (name rules, name taken). */
export async function signUp(credentials: account.Credentials): Promise<SessionUser> {
  const user = await account.register(credentials);
  session.user = user;
  session.status = 'ready';
  tellOtherTabs(user);
  signedInAgain(user);
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
    // Signed out on purpose: nothing ended behind the page's back.
    writeStored(SIGNED_IN_ROLE_KEY, null);
    tellOtherTabs(null);
  }
}

/**
 * `session.progressError` where a quest action could not learn who is signed in (GET /api/be/user
 * failed at page load and again on the action): the user may well be pro, so no upsell; the
 * place of the action says so and offers to try again (ui/quests/QuestProgressError.tsx).
 */
export const ACCOUNT_UNCHECKED = 'raidmap:account-unchecked';

export type QuestActionResult = 'saved' | 'upsell' | 'signedOut' | 'notShown' | 'busy' | 'failed' | 'unchecked';

let rechecking: Promise<boolean> | null = null;

/**
 * The page could not learn who is signed in (status 'error'): asks the server again, for a pro
 * control or a quest action; one question at a time. True where it answered (taken as at page
 * load), false where it failed again. Never throws.
 */
function checkAgain(): Promise<boolean> {
  if (rechecking) return rechecking;
  lastChecked = Date.now();
  rechecking = account
    .fetchUser()
    .then(
      (user) => {
        takeServerUser(user);
        return true;
      },
      (error: unknown) => {
        console.warn('raidmap: could not read the signed-in user', error);
        return false;
      },
    )
    .finally(() => {
      rechecking = null;
    });
  return rechecking;
}

/** `checkAgain` for a quest action: false where it failed again (`ACCOUNT_UNCHECKED` is the progress error then). */
async function checkAgainFor(questUid: string): Promise<boolean> {
  session.pendingQuest = questUid;
  session.progressError = null;
  try {
    const answered = await checkAgain();
    if (!answered) session.progressError = ACCOUNT_UNCHECKED;
    return answered;
  } finally {
    session.pendingQuest = null;
  }
}

/**
 * complete / reopen / hide / show a quest (spec §4). A visitor (signed in or not) sees the
 * upsell and nothing is sent; an admin has no such action. For a pro user the user is
 * refreshed from the server first (the session may have ended, the role changed), then the
 * change alone is saved and the server's answer becomes the session user. Where the refresh
 * finds the session ended, the sign-in dialog says so, and `again` (by default this same action)
 * runs once the user has signed in; giving up the sign-in drops it.
 */
export async function runQuestAction(action: QuestAction, questUid: string, again?: () => void): Promise<QuestActionResult> {
  // Used while the page asks who is signed in: judged on the answer, not on "visitor meanwhile".
  if (loading) await loading;
  if (session.status === 'error' && !session.user) {
    // Who is signed in is unknown (the server failed to say), perhaps a pro user: ask again rather
    // than offer them pro; still unknown, say so at the action (docs/DECISIONS.md).
    if (session.pendingQuest) return 'busy';
    if (!(await checkAgainFor(questUid))) return 'unchecked';
    if (session.ended) {
      // It found a session that ended: the sign-in it asked for carries the action out.
      afterSignIn = again ?? (() => void runQuestAction(action, questUid));
      return 'signedOut';
    }
  }
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
      // The session ended meanwhile (expired, or signed out elsewhere): nothing is saved now; the
      // dialog says why, and the action is carried out after the sign-in (the upsell if not pro).
      session.ended = true;
      askToSignIn('saveAction', again ?? (() => void runQuestAction(action, questUid)));
      return 'signedOut';
    }
    rememberSignedIn(fresh);
    if (!can(fresh, 'questProgress')) {
      // No longer pro (or now an admin): nothing is saved.
      if (access(fresh, 'questProgress') === 'upsell') openUpsell();
      return 'upsell';
    }
    // Only the change is sent, not the whole list: the server applies it to the lists as stored,
    // so what another device saved meanwhile stays (and so does a quest that left the list).
    session.user = await account.changeProgress(account.questActionChange(action, questUid));
    lastChecked = Date.now();
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

/** At most one progress refresh on return per this many ms (and none this soon after the server was last asked). */
export const PROGRESS_REFRESH_MS = 30_000;

/**
 * The tab came back into view (or the window got the focus): the user's progress may have
 * changed on another device (another browser; this browser's tabs are told at once). Asks the
 * server for the user again, at most every PROGRESS_REFRESH_MS, only where someone is signed in
 * and the session is known, and never while a quest action is saved: an answer that arrives after
 * the user changed here (a save, another tab, a sign-out) is dropped, so no change is lost.
 * True where the answer was taken. A session found ended is said, as at page load.
 */
export async function refreshProgress(now = Date.now()): Promise<boolean> {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return false;
  if (session.status !== 'ready' || !session.user || loading || refreshing || session.pendingQuest) return false;
  if (now - lastChecked < PROGRESS_REFRESH_MS) return false;
  // Asked now, whatever comes of it: the next return within PROGRESS_REFRESH_MS asks nothing.
  lastChecked = now;
  const before = session.user;
  refreshing = true;
  try {
    const fresh = await account.fetchUser();
    // Something newer than this answer came meanwhile, or a save started: it wins.
    if (session.user !== before || session.pendingQuest || session.status !== 'ready') return false;
    takeServerUser(fresh);
    return true;
  } catch (error) {
    // Kept as it was: the next return after PROGRESS_REFRESH_MS asks again.
    console.warn('raidmap: could not refresh the signed-in user', error);
    return false;
  } finally {
    refreshing = false;
  }
}

/** Refreshes the progress when the tab comes back (visibilitychange, focus). Idempotent. */
export function watchProgressOnReturn(): void {
  if (watchingReturn || typeof document === 'undefined' || typeof window === 'undefined') return;
  watchingReturn = true;
  const onReturn = () => void refreshProgress();
  document.addEventListener('visibilitychange', onReturn);
  window.addEventListener('focus', onReturn);
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
  session.ended = false;
  session.signInReason = null;
  session.uncheckedFeature = null;
  afterSignIn = null;
  lastChecked = 0;
  refreshing = false;
  rechecking = null;
  writeStored(SIGNED_IN_ROLE_KEY, null);
}

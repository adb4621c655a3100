/**
 * An admin's change refused because the session ended (a 401: it expired, was signed out on
 * another device, its row was deleted) is not lost: the editor keeps it on the map, failed as
 * 'signedOut' (src/editor/commands.ts), and this asks for a sign-in at once, as a quest action
 * does (state/session.ts): the account dialog opens saying "Your session has ended. Sign in to
 * save this." Once an admin is signed in again (in that dialog, or in another tab), every change
 * refused so is sent again, without a Retry. Giving up the sign-in leaves them failed, with Retry
 * and Discard; the next refusal asks again. Someone who signs in without admin rights gets no
 * editor: what the page keeps across leaving the editor (unsaved markers, form work) is kept for
 * the next admin page of the map, as ever (state/setAsideStore.ts); see docs/DECISIONS.md.
 *
 * The admin stays shown as signed in meanwhile (their tools and changes stay): taking the user
 * away would close the editor, and its changes with it.
 */
import { subscribe } from 'valtio';
import { can } from '../../domain/roles';
import type { EditorCommands, EditorCommandsState } from '../../editor/commands';
import { retrySave } from '../../state/editor';
import { askToSignInToSave, session } from '../../state/session';

/** The markers whose change failed because the session ended. */
export function signedOutUids(state: Pick<EditorCommandsState, 'pending'>): string[] {
  return Object.entries(state.pending)
    .filter(([, entry]) => entry.status === 'failed' && entry.error?.code === 'signedOut')
    .map(([uid]) => uid);
}

export interface SignInToSaveOptions {
  /** Opens the sign-in dialog (tests). */
  ask?: () => void;
  /** Sends a failed change again (default: the editor slice's retrySave). */
  retry?: (uid: string) => Promise<void>;
}

/** Follows `commands` (bound to the editor slice): see the file's comment. Returns the stop. */
export function signInToSave(commands: EditorCommands, options: SignInToSaveOptions = {}): () => void {
  const ask = options.ask ?? askToSignInToSave;
  const retry = options.retry ?? retrySave;
  let refused = new Set(signedOutUids(commands.getState()));
  const offCommands = commands.subscribe((state) => {
    const now = signedOutUids(state);
    // A change refused just now (a Retry refused again too): ask, unless the dialog asks already.
    const fresh = now.some((uid) => !refused.has(uid));
    refused = new Set(now);
    if (fresh && session.signInReason === null) ask();
  });
  let user = session.user;
  const offSession = subscribe(session, () => {
    if (session.user === user) return;
    user = session.user;
    if (!can(session.user, 'adminTools')) return;
    for (const uid of signedOutUids(commands.getState())) {
      retry(uid).catch((error: unknown) => console.warn('raidmap: saving a change after the sign-in failed', error));
    }
  });
  return () => {
    offCommands();
    offSession();
  };
}

/**
 * An admin's change refused because the session ended (a 401: it expired, was signed out on
 * another device, its row was deleted) is not lost: the editor keeps it on the map, failed as
 * 'signedOut' (src/editor/commands.ts), and this asks for a sign-in at once, as a quest action
 * does (state/session.ts): the account dialog opens saying "Your session has ended. Sign in to
 * save this." Once an admin is signed in again (in that dialog, or in another tab), every change
 * refused so is sent again, without a Retry. Giving up the sign-in leaves them failed, with Retry
 * and Discard; the next refusal asks again. Someone who signs in without admin rights gets no
 * editor: what the page keeps across leaving the editor (unsaved markers, form work) is kept for
 * the next admin page of the map, as ever (state/setAsideStore.ts), and the moves, edits and
 * deletes of stored markers refused so are kept on the page (`keptForAdmin`): the map goes on
 * showing them, the page says they were not saved because this account may not edit the map
 * (ui/admin/KeptForAdminNotice.tsx), nothing is sent, and the next admin signed in on the page
 * has them sent again, based on the version they were made on (another admin's change since is a
 * conflict, not overwritten). They are kept in the tab's sessionStorage too (a reload shows the
 * same notice), and a change still on its way as the editor closes is kept once refused. See docs/DECISIONS.md.
 *
 * The admin stays shown as signed in meanwhile (their tools and changes stay): taking the user
 * away would close the editor, and its changes with it.
 */
import { proxy, subscribe } from 'valtio';
import { can } from '../../domain/roles';
import type { EditorCommands, EditorCommandsState, KeptChange } from '../../editor/commands';
import { KEPT_FOR_ADMIN_STORAGE_KEY, parseKeptChanges, storedKeptChanges } from '../../editor/keptChanges';
import { boundEditor, retrySave } from '../../state/editor';
import { settleSetAside } from '../../state/popup';
import { askToSignInToSave, session } from '../../state/session';
import { readTabStored, writeTabStored } from '../../state/storage';

/** The markers whose change failed because the session ended. */
export function signedOutUids(state: Pick<EditorCommandsState, 'pending'>): string[] {
  return Object.entries(state.pending)
    .filter(([, entry]) => entry.status === 'failed' && entry.error?.code === 'signedOut')
    .map(([uid]) => uid);
}

export interface KeptForAdminState {
  /**
   * Changes of stored markers refused because the session ended, kept since the editor closed
   * for an account without admin rights (the next admin signed in on the page sends them).
   */
  changes: KeptChange[];
}

/**
 * Kept in the tab's sessionStorage too (editor/keptChanges.ts), so a reload (or a closed tab
 * the browser reopens) shows the same notice and the next admin still has them sent: read as
 * the page starts, written at each change of the list.
 */
export const keptForAdmin = proxy<KeptForAdminState>({ changes: parseKeptChanges(readTabStored(KEPT_FOR_ADMIN_STORAGE_KEY)) });

/** Per kept uid: puts the server's copy back on the map (the kept change's Discard). */
const putBack = new Map<string, () => Promise<void>>();

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Replaces the kept changes, in memory and in the tab's store (none left: the entry is removed). */
function setKept(changes: KeptChange[]): void {
  keptForAdmin.changes = changes;
  writeTabStored(KEPT_FOR_ADMIN_STORAGE_KEY, storedKeptChanges(plain(changes)));
}

/** Adds `changes` (a later change of a uid replaces the one kept for it). */
function addKept(commands: EditorCommands, changes: KeptChange[]): void {
  if (changes.length === 0) return;
  const uids = new Set(changes.map((change) => change.uid));
  // The closed editor still puts the server's copy back on the page (discardFailed only shows it).
  for (const uid of uids) putBack.set(uid, () => commands.discardFailed(uid));
  setKept([...keptForAdmin.changes.filter((change) => !uids.has(change.uid)), ...changes]);
}

/** The markers whose change is still being saved (its request on its way, or queued behind one). */
const savingUids = (commands: EditorCommands) =>
  Object.entries(commands.getState().pending)
    .filter(([, entry]) => entry.status === 'saving')
    .map(([uid]) => uid);

/** The editor closes without an admin signed in: its changes refused by a 401 (or 403) are kept, not dropped. */
function keepForAdmin(commands: EditorCommands): void {
  addKept(commands, commands.signedOutChanges());
  // A change still on its way as the editor closes is refused too, a moment later (its 401; a
  // 403 where the new account's cookie went with it): kept once answered, like those refused before.
  const saving = new Set(savingUids(commands));
  if (saving.size === 0) return;
  commands
    .settle()
    .then(() => {
      const late = commands.signedOutChanges().filter((change) => saving.has(change.uid));
      if (late.length === 0) return;
      addKept(commands, late);
      // An admin signed in again meanwhile: their editor, open already, has them sent.
      const open = boundEditor();
      if (open && open !== commands && can(session.user, 'adminTools')) sendKept(open);
    })
    .catch((error: unknown) => console.warn('raidmap: keeping the changes still saving for an admin failed', error));
}

/** An admin's editor opened: the kept changes of its map are shown and sent again. */
function sendKept(commands: EditorCommands): void {
  if (keptForAdmin.changes.length === 0) return;
  const sending = plain(keptForAdmin.changes);
  commands
    .restoreChanges(sending)
    .then((sent) => {
      const done = new Set(sent);
      for (const uid of sent) putBack.delete(uid);
      setKept(keptForAdmin.changes.filter((change) => !done.has(change.uid)));
      // A form's refused save is also the form's work, kept for the next admin page as work set
      // aside (state/setAsideStore.ts): sent now, it is not offered a second time ("Back to
      // them"), unless the form holds more than what was sent.
      for (const change of sending) if (done.has(change.uid) && change.marker) settleSetAside(change.marker);
    })
    .catch((error: unknown) => console.warn('raidmap: sending the changes kept for an admin failed', error));
}

/**
 * "Discard" of the kept changes (of `mapId`; left out: all): dropped, in the tab's store too,
 * and the map shows the server's copies again.
 */
export function discardKeptForAdmin(mapId?: string): Promise<void> {
  const dropped = keptForAdmin.changes.filter((change) => mapId === undefined || change.base.map === mapId);
  const uids = dropped.map((change) => change.uid);
  setKept(keptForAdmin.changes.filter((change) => !dropped.includes(change)));
  const shown = uids.map((uid) => {
    const back = putBack.get(uid);
    putBack.delete(uid);
    // The page that showed them may be gone (another map, a reload: it shows the server's already).
    return back?.().catch((error: unknown) => console.warn('raidmap: putting a marker back failed', error));
  });
  return Promise.all(shown).then(() => undefined);
}

/** Reads the tab's store again, as a reloaded page does (tests). */
export function loadKeptForAdmin(): void {
  putBack.clear();
  keptForAdmin.changes = parseKeptChanges(readTabStored(KEPT_FOR_ADMIN_STORAGE_KEY));
}

/** Forgets the kept changes, stored ones too (tests). */
export function resetKeptForAdmin(): void {
  setKept([]);
  putBack.clear();
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
  if (can(session.user, 'adminTools')) sendKept(commands);
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
    // Stopped as the editor closes: for someone without admin rights (signed in as a visitor or
    // pro, or signed out), the changes refused so are kept; an admin leaving the map is not
    // signed out, and leaves them (the page asked first: ui/admin/LeaveGuard.tsx).
    if (!can(session.user, 'adminTools')) keepForAdmin(commands);
  };
}

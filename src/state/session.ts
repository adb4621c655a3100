/**
 * The signed-in user (spec §3 User). Accounts come in a later issue: until then a visitor is
 * never signed in, so never pro.
 */
import { proxy } from 'valtio';
import type { RoleFlags } from '../domain/roles';

export interface SessionUser extends RoleFlags {
  questsDone: string[];
  questsHidden: string[];
}

export interface SessionState {
  user: SessionUser | null;
}

export const session = proxy<SessionState>({ user: null });

/** True for a paying user: more than 3 quests, look arrow, own progress, settings. */
export function isPro(): boolean {
  return session.user?.pro === true;
}

/**
 * The signed-in user. Until the account system arrives (issue 4) nobody signs in: the user
 * is null, which the role table reads as a visitor (not pro).
 */
import { proxy } from 'valtio';
import { can, roleOf, type Capability, type RoleFlags } from '../domain/roles';

export interface SessionUser extends RoleFlags {
  /** Quest uids the user marked done / hidden (spec §3 User). */
  questsDone: string[];
  questsHidden: string[];
}

export interface SessionState {
  user: SessionUser | null;
}

export const session = proxy<SessionState>({ user: null });

export function setSessionUser(user: SessionUser | null): void {
  session.user = user;
}

/** True for a signed-in pro user (admins are not pro: the role table gives them their own column). */
export function isPro(): boolean {
  return roleOf(session.user) === 'pro';
}

/** May the current user use this capability (role table, spec §6)? */
export function sessionCan(capability: Capability): boolean {
  return can(session.user, capability);
}

/**
 * The role table (spec §6). One function answers "may this user do that"; the server checks
 * it on every call and the UI uses it to choose between a control, an upsell and nothing.
 */
export type Role = 'visitor' | 'pro' | 'admin';

export type Capability =
  | 'view'
  | 'questProgress'
  | 'questsBeyondLimit'
  | 'lookArrow'
  | 'ownProgress'
  | 'settings'
  | 'editMarkers'
  | 'adminTools';

export type Access = 'yes' | 'upsell' | 'no' | 'notShown';

export const ROLE_TABLE: Record<Capability, Record<Role, Access>> = {
  view: { visitor: 'yes', pro: 'yes', admin: 'yes' },
  questProgress: { visitor: 'upsell', pro: 'yes', admin: 'notShown' },
  questsBeyondLimit: { visitor: 'no', pro: 'yes', admin: 'notShown' },
  lookArrow: { visitor: 'upsell', pro: 'yes', admin: 'notShown' },
  ownProgress: { visitor: 'upsell', pro: 'yes', admin: 'notShown' },
  settings: { visitor: 'upsell', pro: 'yes', admin: 'notShown' },
  editMarkers: { visitor: 'no', pro: 'no', admin: 'yes' },
  adminTools: { visitor: 'no', pro: 'no', admin: 'yes' },
};

export interface RoleFlags {
  pro: boolean;
  admin: boolean;
}

/** Admin wins over pro; a signed-out user is a visitor. */
export function roleOf(user: RoleFlags | null | undefined): Role {
  if (!user) return 'visitor';
  return user.admin ? 'admin' : user.pro ? 'pro' : 'visitor';
}

export function access(user: RoleFlags | null | undefined, capability: Capability): Access {
  return ROLE_TABLE[capability][roleOf(user)];
}

export function can(user: RoleFlags | null | undefined, capability: Capability): boolean {
  return access(user, capability) === 'yes';
}

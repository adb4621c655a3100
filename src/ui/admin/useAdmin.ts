import { useSnapshot } from 'valtio';
import { can } from '../../domain/roles';
import { session } from '../../state/session';

/** True while the signed-in user may use the admin tools (spec §6); visitors and pro users never do. */
export function useAdminTools(): boolean {
  const { user } = useSnapshot(session);
  return can(user, 'adminTools');
}

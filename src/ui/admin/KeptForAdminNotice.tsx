/**
 * Said on the map page to someone without admin rights who signed in (or out) while an admin's
 * changes refused because the session ended were waiting (ui/map/signInToSave.ts
 * `keptForAdmin`): how many map changes were not saved, that this account may not edit the map,
 * and that they are kept on this page until an admin signs in, who has them sent. "Sign in as
 * admin" opens the sign-in form; "Discard" drops them (the map shows the server's markers again).
 * Renders nothing for an admin (their editor has the changes) or with nothing kept.
 *
 * Per map: it counts (and Discard drops) the changes of the map shown, `mapId`; another map's
 * stay kept for that map's page. Kept across a reload of the tab (sessionStorage), so the same
 * notice comes back; the map then shows the server's markers until an admin has them sent.
 *
 * Outside the admin dock, which only an admin's page has: the map page mounts it for everyone.
 */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { can } from '../../domain/roles';
import { openAccountDialog } from '../../state/layout';
import { session } from '../../state/session';
import { discardKeptForAdmin, keptForAdmin } from '../map/signInToSave';
import './KeptForAdminNotice.css';

export function KeptForAdminNotice({ mapId }: { mapId: string }) {
  const { t } = useTranslation();
  const { changes: all } = useSnapshot(keptForAdmin);
  const { user } = useSnapshot(session);
  const changes = all.filter((change) => change.base.map === mapId);
  if (changes.length === 0 || can(user, 'adminTools')) return null;
  const discard = () => {
    discardKeptForAdmin(mapId).catch((error: unknown) => console.error('raidmap: discarding the kept changes failed', error));
  };
  return (
    <div role="alert" className="kept-for-admin">
      <p className="kept-for-admin__text">{t(user ? 'admin.keptForAdmin.textSignedIn' : 'admin.keptForAdmin.textSignedOut', { count: changes.length })}</p>
      <span className="kept-for-admin__actions">
        <button type="button" className="button" onClick={() => openAccountDialog('signIn')}>
          {t('admin.keptForAdmin.signIn')}
        </button>
        <button type="button" className="button button--ghost" onClick={discard}>
          {t('admin.keptForAdmin.discard')}
        </button>
      </span>
    </div>
  );
}

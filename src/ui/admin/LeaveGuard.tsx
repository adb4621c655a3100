/**
 * Leaving the map within the app (All maps, another map, the quests page, the browser's Back)
 * while changes of this page are not on the server (still saving, failed, or held by a conflict
 * waiting for a choice: state/editor.ts `changesOnLeavingNow`) asks first, in the page's
 * language, as a reload or a closed tab does with the browser's own "Leave site?"
 * (map/wireEditor.ts, `beforeunload`): how many changes would be lost, and how many markers
 * placed and not saved are kept (leaving keeps them and the map offers them back:
 * UnsavedMarkersNotice), with Stay (nothing changes) and Leave. Moving within the map (a marker
 * link, the level in the address) is not leaving: not asked. If everything is saved while it
 * asks (the server came back), it goes where it was asked to.
 */
import { useContext, useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { UNSAFE_DataRouterContext, useBlocker, type BlockerFunction } from 'react-router';
import { useSnapshot } from 'valtio';
import { changesOnLeaving, changesOnLeavingNow, editor, unsavedAddUids } from '../../state/editor';
import { Popup } from '../popups/Popup';

/** A navigation to another page of the app (not the same map) while a change is not on the server. */
export const leavingAsks: BlockerFunction = ({ currentLocation, nextLocation }) => {
  if (currentLocation.pathname === nextLocation.pathname) return false;
  const { lost, kept } = changesOnLeavingNow();
  return lost + kept > 0;
};

export function LeaveGuard() {
  // Blocking needs the app's data router (the map page always has one; a bare component test does not).
  return useContext(UNSAFE_DataRouterContext) ? <Guard /> : null;
}

function Guard() {
  const { t } = useTranslation();
  const blocker = useBlocker(leavingAsks);
  // The count follows saves that go through while it asks.
  const { pending, conflicts } = useSnapshot(editor);
  const { lost, kept } = changesOnLeaving({ pending, conflicts }, unsavedAddUids());
  const count = lost + kept;
  const blocked = blocker.state === 'blocked';

  useEffect(() => {
    if (blocked && count === 0) blocker.proceed();
  }, [blocked, count, blocker]);

  if (!blocked || count === 0) return null;
  // Over the whole page (the dock is a stacking context under the top bar), as the other dialogs.
  return createPortal(
    <Popup title={t('admin.leave.title')} onClose={() => blocker.reset()} maxWidth={360} className="admin-leave">
      {lost > 0 && <p className="admin-leave__text">{t('admin.leave.lost', { count: lost })}</p>}
      {kept > 0 && <p className="admin-leave__text">{t(lost > 0 ? 'admin.leave.keptToo' : 'admin.leave.kept', { count: kept })}</p>}
      <div className="admin-leave__actions">
        <button type="button" className="admin-button" onClick={() => blocker.reset()}>
          {t('admin.leave.stay')}
        </button>
        <button type="button" className="admin-button" onClick={() => blocker.proceed()}>
          {t('admin.leave.leave')}
        </button>
      </div>
    </Popup>,
    document.body,
  );
}

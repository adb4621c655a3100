/**
 * A marker this admin was dragging was deleted by another admin meanwhile (state/editor.ts
 * `goneWhileMoving`, seen by map/wireEditor.ts): it went from under the pointer and its move was
 * not made, since nothing was left to move. The dock says so, naming the marker by its type (the
 * page held only what the map draws, not its name), until "OK".
 */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { dismissGoneWhileMoving, editor } from '../../state/editor';
import { subCategoryLabel } from '../panels/labels';

export function GoneWhileMovingNotice() {
  const { t } = useTranslation();
  const { goneWhileMoving } = useSnapshot(editor);
  if (!goneWhileMoving) return null;
  const { subCategory } = goneWhileMoving;
  return (
    <div role="status" className="admin-set-aside admin-gone-moving admin-notice--needs-admin">
      <span className="admin-set-aside__text">
        {subCategory ? t('admin.goneWhileMoving.text', { type: subCategoryLabel(t, subCategory) }) : t('admin.goneWhileMoving.textUnknown')}
      </span>
      <span className="admin-set-aside__actions">
        <button type="button" className="admin-button" onClick={dismissGoneWhileMoving}>
          {t('admin.goneWhileMoving.ok')}
        </button>
      </span>
    </div>
  );
}

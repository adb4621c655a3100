/**
 * The admin's point-history buttons (spec §2 "Admin only"): Rec PointsHistory, Toggle points,
 * Toggle coords, Clear points (after `Clear points?`) and the SVG download. Shown while
 * layout.pointTools is on (Alt-click on the top bar); admins only. Mounting it loads the map's
 * saved points (state/points.ts) and unmounting stops recording. The SVG is the map's size,
 * labelled with game coordinates while "Toggle coords" is on. Starting to record shows the points.
 * On a phone the buttons are one row that scrolls sideways (PointTools.css), so the map stays tappable.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { MapDefinition } from '../../domain/maps';
import { layout } from '../../state/layout';
import {
  CLEAR_POINTS_CONFIRMATION,
  clearPoints,
  closePoints,
  openPoints,
  points,
  pointsSvg,
  toggleCoordsShown,
  togglePointsShown,
  toggleRecording,
} from '../../state/points';
import { downloadText } from './download';
import { useAdminTools } from './useAdmin';
import './admin.css';
import './PointTools.css';

/** The downloaded file's name. */
export const pointsFileName = (mapId: string) => `${mapId}-points.svg`;

export interface PointToolsProps {
  /** The open map: its id keys the saved points and names the file; size and transform shape the SVG. */
  map: Pick<MapDefinition, 'id' | 'name' | 'size' | 'transform'>;
}

export function PointTools({ map }: PointToolsProps) {
  const admin = useAdminTools();
  if (!admin) return null;
  return <PointToolsBody map={map} />;
}

function PointToolsBody({ map }: PointToolsProps) {
  const mapId = map.id;
  const { t } = useTranslation();
  const { pointTools } = useSnapshot(layout);
  const { list, recording, shown, coordsShown } = useSnapshot(points);

  useEffect(() => {
    openPoints(mapId);
    return closePoints;
  }, [mapId]);

  if (!pointTools) return null;

  const onClear = () => {
    // The spec's "Clear points?" in English; the page's language otherwise.
    if (window.confirm(t('admin.points.clearConfirm', { defaultValue: CLEAR_POINTS_CONFIRMATION }))) clearPoints();
  };
  // Its <title> is the map's name as the page says it (Таможня on a Russian page).
  const onDownload = () => downloadText(pointsFileName(mapId), pointsSvg(map, t(`maps.${mapId}`, { defaultValue: map.name })), 'image/svg+xml');
  // Points recorded out of sight looked like nothing was recorded: starting to record shows them
  // (Toggle points still hides and shows them; stopping leaves them as they are).
  const onRecord = () => {
    toggleRecording();
    if (points.recording && !points.shown) togglePointsShown();
  };

  return (
    <section className="admin-points" aria-label={t('admin.points.label')}>
      <button type="button" className="admin-button" aria-pressed={recording} onClick={onRecord}>
        {t('admin.points.record')}
      </button>
      <button type="button" className="admin-button" aria-pressed={shown} onClick={togglePointsShown}>
        {t('admin.points.toggle')}
      </button>
      <button type="button" className="admin-button" aria-pressed={coordsShown} onClick={toggleCoordsShown}>
        {t('admin.points.coords')}
      </button>
      <button type="button" className="admin-button" onClick={onClear}>
        {t('admin.points.clear')}
      </button>
      <button type="button" className="admin-button" onClick={onDownload}>
        {t('admin.points.download')}
      </button>
      <span className="admin-points__count" role="status">
        {t('admin.points.count', { count: list.length })}
      </span>
    </section>
  );
}

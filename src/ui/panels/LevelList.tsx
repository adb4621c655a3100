/** The level radio list (only for maps with more than one level), bound to mapView.level. */
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { MapDefinition } from '../../domain/maps';
import { mapView, setLevel } from '../../state/mapView';
import { levelLabel } from './labels';

export function LevelList({ map }: { map: Pick<MapDefinition, 'id' | 'levels'> }) {
  const { t } = useTranslation();
  const { level } = useSnapshot(mapView);
  if (map.levels.length < 2) return null;
  return (
    <fieldset className="map-panel__section level-list">
      <legend className="map-panel__title">{t('panels.levels')}</legend>
      {map.levels.map((l) => (
        <label key={l.num} className="level-list__item">
          <input type="radio" name={`level-${map.id}`} value={l.num} checked={level === l.num} onChange={() => setLevel(l.num)} />
          <span>{levelLabel(t, l)}</span>
        </label>
      ))}
    </fieldset>
  );
}

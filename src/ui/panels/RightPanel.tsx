/** Right panel: levels (multi-level maps), the quest list and the Settings button. */
import { useTranslation } from 'react-i18next';
import type { MapDefinition } from '../../domain/maps';
import { LevelList } from './LevelList';
import { QuestList } from './QuestList';
import { SettingsButton } from './SettingsButton';

export function RightPanel({ map }: { map: Pick<MapDefinition, 'id' | 'levels'> }) {
  const { t } = useTranslation();
  return (
    <aside className="map-panel map-panel--right" aria-label={t('panels.rightPanel')}>
      <LevelList map={map} />
      <QuestList mapId={map.id} />
      <div className="map-panel__footer">
        <SettingsButton />
      </div>
    </aside>
  );
}

/**
 * The map page's side panels and their popups. Always mounted with the map page (the panels
 * themselves hide with the top bar's Show / Hide panels), so `?quest=` keeps following the
 * selection while the panels are hidden.
 */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { MapDefinition } from '../../domain/maps';
import { loadQuestMaps } from '../../state/items';
import { closeUpsell, layout, openUpsell } from '../../state/layout';
import { closeLimitNotice, loadQuests, quests } from '../../state/quests';
import { LimitNotice } from '../popups/LimitNotice';
import { UpsellPopup } from '../popups/UpsellPopup';
import { CategoryPanel } from './CategoryPanel';
import { RightPanel } from './RightPanel';
import { useQuestUrl } from './useQuestUrl';
import './panels.css';

export function MapPanels({ map }: { map: Pick<MapDefinition, 'id' | 'levels'> }) {
  const { panelsShown, upsellOpen } = useSnapshot(layout);
  const { limitNotice } = useSnapshot(quests);
  useQuestUrl();
  useEffect(() => {
    void loadQuests();
    void loadQuestMaps();
  }, []);

  return (
    <>
      {panelsShown && (
        <>
          <CategoryPanel />
          <RightPanel map={map} onUpsell={openUpsell} />
        </>
      )}
      {limitNotice && (
        <LimitNotice
          onClose={closeLimitNotice}
          onPro={() => {
            closeLimitNotice();
            openUpsell();
          }}
        />
      )}
      {upsellOpen && <UpsellPopup onClose={closeUpsell} />}
    </>
  );
}

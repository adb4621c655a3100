/**
 * The map page's side panels and their popups (quest-limit notice, pro upsell, settings).
 * The limit notice offers pro to a visitor only: where a fourth quest could not check the account
 * (the server failed to say who is signed in), its place says so, with Try again (LimitUncheckedNotice),
 * and so does a `?quest=` link of more quests than the limit (LinkUncheckedNotice).
 * Always mounted with the map page (the panels themselves hide with the top bar's Show / Hide
 * panels), so `?quest=` keeps following the selection while the panels are hidden.
 */
import { memo, useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { MapDefinition } from '../../domain/maps';
import type { MarkerSource } from '../map/markerSource';
import { loadQuestMaps } from '../../state/items';
import { closeSettings, closeUpsell, layout, openUpsell } from '../../state/layout';
import { closeLimitNotice, loadQuests, quests } from '../../state/quests';
import { session } from '../../state/session';
import { LimitNotice } from '../popups/LimitNotice';
import { UpsellPopup } from '../popups/UpsellPopup';
import { LimitUncheckedNotice } from '../quests/LimitUncheckedNotice';
import { LinkUncheckedNotice } from '../quests/LinkUncheckedNotice';
import { SettingsPopup } from '../settings/SettingsPopup';
import { CategoryPanel } from './CategoryPanel';
import { RightPanel } from './RightPanel';
import { useQuestUrl } from './useQuestUrl';
import './panels.css';

// Memoised: the map page re-renders as its manifest and markers arrive (while the engine
// starts); the panels follow their own state, not those.
export const MapPanels = memo(function MapPanels({ map, source = null }: { map: Pick<MapDefinition, 'id' | 'levels'>; source?: MarkerSource | null }) {
  const { panelsShown, upsellOpen, settingsOpen, accountDialog } = useSnapshot(layout);
  const { limitNotice, uncheckedQuest } = useSnapshot(quests);
  const { status } = useSnapshot(session);
  useQuestUrl();
  useEffect(() => {
    void loadQuests();
    void loadQuestMaps();
  }, []);
  // Leaving the map page closes the settings popup: the next map page starts without it.
  useEffect(() => closeSettings, []);

  return (
    <>
      {panelsShown && (
        <>
          <CategoryPanel source={source} />
          <RightPanel map={map} />
        </>
      )}
      {/* Not over the account dialog: a session that ended asks for a sign-in first, which may make the limit moot. */}
      {limitNotice && accountDialog === null && (
        <LimitNotice
          onClose={closeLimitNotice}
          onPro={() => {
            closeLimitNotice();
            openUpsell();
          }}
        />
      )}
      {/* Goes with any answer from the server (as the Settings note does). */}
      {uncheckedQuest !== null && status === 'error' && accountDialog === null && <LimitUncheckedNotice />}
      {/* Shows itself while a link's quests wait for the account check. */}
      <LinkUncheckedNotice />
      {settingsOpen && <SettingsPopup onClose={closeSettings} />}
      {upsellOpen && <UpsellPopup onClose={closeUpsell} />}
    </>
  );
});

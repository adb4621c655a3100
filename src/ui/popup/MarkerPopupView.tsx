/**
 * The marker popup's view mode (spec §2 "Marker popup"): description (plain text, never HTML),
 * images with previous / next and a counter, the level, the quest link (dimmed once the quest is
 * done, not for admins) with the quest actions under it, and the items; under them, for a quest
 * marker, what opening it changed or could not (QuestMarkerNotes: a quest swapped in at the free
 * limit, with Undo; a quest the user completed or hid, whose markers are not drawn). `footer` holds what the
 * composition adds below (an admin's Edit button); visitors and pro users get none.
 */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import { localized, type Marker } from '../../domain/marker';
import { popupTitle } from './popupTitle';
import type { MapDefinition } from '../../domain/maps';
import { isLanguage } from '../../i18n';
import { itemName, loadItems, lookups, questLabel } from '../../state/items';
import { popup, stepImage } from '../../state/popup';
import { loadQuests, questMarks, quests } from '../../state/quests';
import { session } from '../../state/session';
import { QuestActions } from '../quests/QuestActions';
import { levelName } from './levelName';
import { QuestMarkerNotes } from './QuestMarkerNotes';

export interface MarkerPopupViewProps {
  map: MapDefinition;
  marker: Marker;
  footer?: ReactNode;
}

export function MarkerPopupView({ map, marker, footer }: MarkerPopupViewProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { imageIndex } = useSnapshot(popup);
  const { items } = useSnapshot(lookups);
  const { list: questList } = useSnapshot(quests);
  const { user } = useSnapshot(session);

  useEffect(() => {
    if (marker.questUid) void loadQuests();
    if (marker.itemsUid.length > 0) void loadItems();
  }, [marker]);

  const name = popupTitle(t, lang, marker);
  const desc = localized(marker, 'desc', lang);
  const images = marker.imgs;
  const index = Math.min(imageIndex, Math.max(0, images.length - 1));
  const image = images[index];
  const questUid = marker.questUid;
  const questTitle = questUid ? questLabel(questList, questUid, lang) : '';
  // Until the quest list is there, the actions name the quest by its label (the uid).
  const quest = questUid ? (questList.find((q) => q.uid === questUid) ?? { uid: questUid, name: questTitle, ruName: questTitle }) : null;

  return (
    <>
      {desc ? <p className="marker-popup__desc">{desc}</p> : <p className="marker-popup__desc marker-popup__desc--empty">{t('markerPopup.noDescription')}</p>}

      {image && (
        <figure className="marker-popup__figure" aria-label={t('markerPopup.images')}>
          <img className="marker-popup__image" src={image.img} alt={image.name || name} />
          {images.length > 1 && (
            <div className="marker-popup__pager">
              <button type="button" onClick={() => stepImage(-1, images.length)} disabled={index === 0}>
                {t('markerPopup.previous')}
              </button>
              <span className="marker-popup__counter" aria-live="polite">
                {t('markerPopup.imageCounter', { index: index + 1, count: images.length })}
              </span>
              <button type="button" onClick={() => stepImage(1, images.length)} disabled={index >= images.length - 1}>
                {t('markerPopup.next')}
              </button>
            </div>
          )}
          {(image.name || image.desc) && (
            <figcaption>
              {image.name && <strong>{image.name}</strong>}
              {image.name && image.desc ? ' — ' : ''}
              {image.desc}
            </figcaption>
          )}
        </figure>
      )}

      <dl className="marker-popup__facts">
        <dt>{t('markerPopup.level')}</dt>
        <dd>{levelName(t, map, marker.level)}</dd>
        {quest && (
          <>
            <dt>{t('markerPopup.quest')}</dt>
            <dd className="marker-popup__quest">
              <Link
                to={`/progression/quests?quest=${encodeURIComponent(quest.uid)}`}
                className={questMarks(user, quest.uid).done ? 'marker-popup__quest-link marker-popup__quest-link--done' : 'marker-popup__quest-link'}
              >
                {questTitle}
              </Link>
              <QuestActions quest={quest} variant="popup" className="marker-popup__quest-actions" />
            </dd>
          </>
        )}
        {marker.itemsUid.length > 0 && (
          <>
            <dt>{t('markerPopup.items')}</dt>
            <dd>
              <ul className="marker-popup__items">
                {marker.itemsUid.map((uid) => (
                  <li key={uid}>{itemName(items, uid, lang)}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      {questUid && <QuestMarkerNotes markerUid={marker.uid} questUid={questUid} />}
      {footer}
    </>
  );
}

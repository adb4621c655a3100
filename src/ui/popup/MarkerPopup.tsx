/**
 * The marker popup (spec §2 "Marker popup", §4): opens for `mapView.selectedUid` with the full
 * marker from the worker, shows its name, description (plain text, never HTML), images with
 * previous / next and a counter, its level, its quest link and its items. Normal or enlarged
 * (remembered in localStorage `map_popup`). Closing it (Close, Escape, a click on empty map)
 * clears the `obj` and `quest` query parameters. It also opens the `?obj=` marker on load.
 * A quest marker's popup carries the quest actions (QuestActions) under the quest link, which
 * is dimmed once the quest is done (not for admins).
 * It talks to state only; the wiring turns `popup.pointerOver` and `popup.focus` into engine calls.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { localized, type Marker } from '../../domain/marker';
import type { MapDefinition } from '../../domain/maps';
import { isLanguage } from '../../i18n';
import { setCategoryHidden, setSubCategoryHidden } from '../../state/filters';
import { itemName, loadItems, lookups, questLabel } from '../../state/items';
import { mapView, selectMarker, setLevel } from '../../state/mapView';
import { loadPopupSize, popup, requestFocus, setPointerOverPopup, showPopupFor, stepImage, toggleEnlarged } from '../../state/popup';
import { loadQuests, questMarks, quests, toggleQuest } from '../../state/quests';
import { session } from '../../state/session';
import { isWorkerClosed, type MarkerSource } from '../map/markerSource';
import { Popup } from '../popups/Popup';
import { QuestActions } from '../quests/QuestActions';
import './popup.css';

export interface MarkerPopupProps {
  map: MapDefinition;
  /** The page's marker worker, or null before it exists. */
  source: MarkerSource | null;
  /** The marker list is loaded into the worker. */
  loaded: boolean;
}

/** Translation keys of the named underground floors (src/domain/maps.ts). */
const FLOOR_KEYS: Record<string, string> = {
  Basement: 'markerPopup.levelBasement',
  Garage: 'markerPopup.levelGarage',
  Underground: 'markerPopup.levelUnderground',
  Parking: 'markerPopup.levelParking',
  Bunker: 'markerPopup.levelBunker',
  Bunkers: 'markerPopup.levelBunkers',
  Tunnels: 'markerPopup.levelTunnels',
  Technical: 'markerPopup.levelTechnical',
  'Lower Maze': 'markerPopup.levelLowerMaze',
};

export function MarkerPopup({ map, source, loaded }: MarkerPopupProps) {
  const { selectedUid } = useSnapshot(mapView);
  const [marker, setMarker] = useState<Marker | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const objParam = useRef(searchParams.get('obj'));

  useEffect(() => {
    loadPopupSize();
  }, []);

  // The open marker: fetched from the worker whenever the selection changes.
  useEffect(() => {
    if (!selectedUid) {
      setMarker(null);
      showPopupFor(null);
      return;
    }
    if (!source || !loaded) return;
    let cancelled = false;
    source
      .get(selectedUid)
      .then((found) => {
        if (cancelled) return;
        if (!found) {
          selectMarker(null);
          return;
        }
        setMarker(found);
        showPopupFor(found.uid);
      })
      .catch((error: unknown) => {
        if (!cancelled && !isWorkerClosed(error)) console.error('raidmap: reading the marker failed', error);
      });
    return () => {
      cancelled = true;
    };
  }, [selectedUid, source, loaded]);

  // `?obj=`: once the markers are loaded, show that marker's category, level and popup, centred.
  useEffect(() => {
    const uid = objParam.current;
    if (!uid || !source || !loaded) return;
    objParam.current = null;
    source
      .get(uid)
      .then((found) => {
        if (!found) return;
        setCategoryHidden(found.category, false);
        setSubCategoryHidden(found.subCategory, false);
        setLevel(found.level);
        // A quest marker shows only while its quest is followed: follow it (within the limit).
        if (found.questUid && !quests.selected.includes(found.questUid)) toggleQuest(found.questUid);
        selectMarker(found.uid);
        requestFocus(found.geometry.x, found.geometry.y);
      })
      .catch((error: unknown) => {
        if (!isWorkerClosed(error)) console.error('raidmap: opening the linked marker failed', error);
      });
  }, [source, loaded]);

  // Closing (from any cause) clears the quest and obj query parameters, keeping the rest.
  const wasOpen = useRef(false);
  const latestParams = useRef(searchParams);
  useEffect(() => {
    latestParams.current = searchParams;
  });
  useEffect(() => {
    if (selectedUid) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    if (!latestParams.current.has('obj') && !latestParams.current.has('quest')) return;
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete('obj');
        next.delete('quest');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [selectedUid, setSearchParams]);

  const close = useCallback(() => selectMarker(null), []);

  if (!selectedUid || !marker || marker.uid !== selectedUid) return null;
  return <MarkerPopupView map={map} marker={marker} onClose={close} />;
}

interface ViewProps {
  map: MapDefinition;
  marker: Marker;
  onClose: () => void;
}

function MarkerPopupView({ map, marker, onClose }: ViewProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { imageIndex, enlarged } = useSnapshot(popup);
  const { items } = useSnapshot(lookups);
  const { list: questList } = useSnapshot(quests);
  const { user } = useSnapshot(session);

  useEffect(() => {
    if (marker.questUid) void loadQuests();
    if (marker.itemsUid.length > 0) void loadItems();
  }, [marker]);

  useEffect(() => () => setPointerOverPopup(false), []);

  const name = localized(marker, 'name', lang) || marker.subCategory;
  const desc = localized(marker, 'desc', lang);
  const images = marker.imgs;
  const index = Math.min(imageIndex, Math.max(0, images.length - 1));
  const image = images[index];
  const questUid = marker.questUid;
  const questTitle = questUid ? questLabel(questList, questUid, lang) : '';
  // Until the quest list is there, the actions name the quest by its label (the uid).
  const quest = questUid ? (questList.find((q) => q.uid === questUid) ?? { uid: questUid, name: questTitle, ruName: questTitle }) : null;
  const level = map.levels.find((l) => l.num === marker.level);
  const levelName = !level
    ? String(marker.level)
    : level.num === 1
      ? t('markerPopup.levelMain')
      : level.num > 1
        ? t('markerPopup.levelUpper', { num: level.num })
        : FLOOR_KEYS[level.name]
          ? t(FLOOR_KEYS[level.name])
          : level.name;

  const sizeButton = (
    <button type="button" className="marker-popup__size" onClick={toggleEnlarged} aria-pressed={enlarged}>
      {enlarged ? t('markerPopup.shrink') : t('markerPopup.enlarge')}
    </button>
  );

  return (
    <div
      className={`marker-popup${enlarged ? ' marker-popup--xl' : ''}`}
      data-uid={marker.uid}
      onPointerEnter={() => setPointerOverPopup(true)}
      onPointerLeave={() => setPointerOverPopup(false)}
    >
      <Popup title={name} onClose={onClose} backdrop={false} maxWidth={enlarged ? 960 : 420} actions={sizeButton} className="marker-popup__dialog">
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
          <dd>{levelName}</dd>
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
      </Popup>
    </div>
  );
}

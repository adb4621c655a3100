import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAP_IDS, MAPS, type MapId } from '../domain/maps';
import './map-list.css';

/**
 * The home page's order: the spec's, the empty test map "dev" last (it led the list, the first
 * card a player saw; docs/DECISIONS.md "The home page's map cards and Quests link").
 */
export const HOME_MAP_ORDER: readonly MapId[] = [...MAP_IDS.filter((id) => id !== 'dev'), 'dev'];

/**
 * Links to every map: in the spec's order (a not-found or error page's short list), or on the
 * home page (`detailed`) the playable maps first, each card with its number of levels (the test
 * map marked as one), under a link to the Quests page.
 */
export function MapList({ detailed = false }: { detailed?: boolean }) {
  const { t } = useTranslation();
  const list = (
    <ul className={detailed ? 'map-list map-list--detailed' : 'map-list'} aria-label={t('home.listLabel')}>
      {(detailed ? HOME_MAP_ORDER : MAP_IDS).map((id) => {
        const map = MAPS[id];
        return (
          <li key={id}>
            <Link to={`/map/${id}`} className="map-list__link" aria-description={detailed && id === 'dev' ? t('home.testMap') : undefined}>
              <span className="map-list__name">{t(`maps.${id}`, { defaultValue: map.name })}</span>
              {detailed && (
                // The levels a player can switch between; the art's pixel size said nothing to one.
                // (The link's name stays the map's; the test map says what it is as its description.)
                <span className="map-list__meta" aria-hidden="true">
                  {id === 'dev' && (
                    <>
                      <span className="map-list__test">{t('home.testMap')}</span>
                      {' · '}
                    </>
                  )}
                  {t('home.levels', { count: map.levels.length })}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
  if (!detailed) return list;
  return (
    <>
      {/* The home page's only way to the Quests page (the maps link to it from a quest's markers). */}
      <p className="map-list__quests">
        {t('home.questsPrompt')}{' '}
        <Link to="/progression/quests" className="map-list__quests-link">
          {t('home.questsLink')}
        </Link>
      </p>
      {list}
    </>
  );
}

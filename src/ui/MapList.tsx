import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAP_IDS, MAPS } from '../domain/maps';

/** Links to every map, in the spec's order. */
export function MapList({ detailed = false }: { detailed?: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className={detailed ? 'map-list map-list--detailed' : 'map-list'} aria-label={t('home.listLabel')}>
      {MAP_IDS.map((id) => {
        const map = MAPS[id];
        return (
          <li key={id}>
            <Link to={`/map/${id}`} className="map-list__link">
              <span className="map-list__name">{t(`maps.${id}`, { defaultValue: map.name })}</span>
              {detailed && (
                <span className="map-list__meta" aria-hidden="true">
                  {t('home.size', { width: map.size.width, height: map.size.height })} · {t('home.levels', { count: map.levels.length })}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

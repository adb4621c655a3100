import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { MAP_IDS, type MapId } from '../../domain/maps';
import { isMapId, pilotPublisher, publish } from '../../state/pilot';

/** The maps of raids (the development map is none). */
export const RAID_MAPS = MAP_IDS.filter((id) => id !== 'dev');

/** The map of the raid, sent by hand: for raids whose map the game's logs do not tell. */
export function MapPicker() {
  const { t } = useTranslation();
  const { sent } = useSnapshot(pilotPublisher);
  const [map, setMap] = useState<MapId>(sent.map ?? 'customs');
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    await publish({ type: 'map', data: { map } });
    setSending(false);
  };

  return (
    <section className="pilot-card" aria-labelledby="pilot-map-heading">
      <h2 id="pilot-map-heading">{t('pilot.map.heading')}</h2>
      <p>{t('pilot.map.intro')}</p>
      <form className="pilot-form" onSubmit={(event) => void submit(event)}>
        <label className="pilot-field">
          <span>{t('pilot.map.label')}</span>
          <select value={map} onChange={(event) => isMapId(event.target.value) && setMap(event.target.value)}>
            {RAID_MAPS.map((id) => (
              <option key={id} value={id}>
                {t(`maps.${id}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={sending}>
          {t('pilot.map.send')}
        </button>
      </form>
    </section>
  );
}

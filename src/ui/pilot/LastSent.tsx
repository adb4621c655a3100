import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { PlayerPosition } from '../../domain/position';
import { pilotPublisher } from '../../state/pilot';
import { pilotErrorText } from './pilotErrors';
import { timeAgo, useNow } from './timeAgo';

/** To the centimetre, as the map's Where am I says it (WhereAmI.tsx): the two pages agree on 5.75. */
const metres = (value: number) => String(Math.round(value * 100) / 100);

/** `X -153.25, Y 88.7, height 2.41` in the page's language (Last sent, and Test with a file name's "Sent:"). */
export function positionWords(t: TFunction, position: PlayerPosition): string {
  return t('pilot.last.position', { x: metres(position.x), y: metres(position.y), z: metres(position.z) });
}

/** What this page last sent (position, map, how long ago) and the last failure, in words. */
export function LastSent() {
  const { t, i18n } = useTranslation();
  const publisher = useSnapshot(pilotPublisher);
  const { sent, errorLimit, pairing } = publisher;
  const now = useNow(1000, sent.positionAt !== null || sent.mapAt !== null || errorLimit?.retryAt != null);
  const problem = pilotErrorText(t, publisher, now, i18n.language);

  return (
    <section className="pilot-card" aria-labelledby="pilot-last-heading">
      <h2 id="pilot-last-heading">{t('pilot.last.heading')}</h2>
      {pairing && (
        <dl className="pilot-last">
          <dt>{t('pilot.last.positionLabel')}</dt>
          <dd>
            {sent.position && sent.positionAt !== null
              ? `${positionWords(t, sent.position)} · ${timeAgo(sent.positionAt, now, i18n.language)}`
              : t('pilot.last.nothing')}
          </dd>
          <dt>{t('pilot.last.mapLabel')}</dt>
          <dd>{sent.map && sent.mapAt !== null ? `${t(`maps.${sent.map}`)} · ${timeAgo(sent.mapAt, now, i18n.language)}` : t('pilot.last.nothing')}</dd>
        </dl>
      )}
      {problem ? (
        <p className="pilot-problem" role="alert">
          {problem}
        </p>
      ) : (
        !pairing && <p>{t('pilot.last.noSession')}</p>
      )}
    </section>
  );
}

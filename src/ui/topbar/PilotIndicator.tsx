import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatPairingCode } from '../../domain/pilot';
import { disconnect, pilot, reconnect, type PilotStatus } from '../../state/pilot';
import { timeAgo, useNow } from '../pilot/timeAgo';
import { useDismiss } from '../useDismiss';
import './pilot-indicator.css';

const STATE_KEYS: Record<PilotStatus, string> = {
  connected: 'pilotFeed.connected',
  reconnecting: 'pilotFeed.reconnecting',
  off: 'pilotFeed.off',
  gone: 'pilotFeed.gone',
};

/**
 * The live position feed's state in the top bar, only while the page follows a code: a dot,
 * green (connected), amber (reconnecting) or grey (off, or the code gone). Its name says the
 * state, the code and how long ago the last position came; a click opens Reconnect (when off
 * or gone) and Disconnect (stops following and forgets the code).
 */
export function PilotIndicator() {
  const { t, i18n } = useTranslation();
  const { code, status, lastUpdateAt } = useSnapshot(pilot);
  const [open, setOpen] = useState(false);
  const now = useNow(1000, code !== null);
  const box = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, box, close);

  if (!code) return null;
  const state = t(STATE_KEYS[status], { code: formatPairingCode(code) });
  const last = lastUpdateAt === null ? t('pilotFeed.noPosition') : t('pilotFeed.lastPosition', { ago: timeAgo(lastUpdateAt, now, i18n.language) });
  const label = `${state} ${last}`;
  const idle = status === 'off' || status === 'gone';

  return (
    <div className="pilot-indicator" ref={box}>
      <button
        type="button"
        className={`topbar-button pilot-indicator__button pilot-indicator--${status}`}
        aria-label={label}
        title={label}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="pilot-indicator__dot" aria-hidden="true" />
        <span className="pilot-indicator__text" aria-hidden="true">
          {t('pilotFeed.short')}
        </span>
      </button>
      {open && (
        <div className="pilot-indicator__menu" role="group" aria-label={t('pilotFeed.menu')}>
          <p className="pilot-indicator__state">{state}</p>
          <p className="pilot-indicator__last">{last}</p>
          <div className="pilot-indicator__actions">
            {idle && (
              <button
                type="button"
                className="topbar-button"
                onClick={() => {
                  reconnect();
                  setOpen(false);
                }}
              >
                {t('pilotFeed.reconnect')}
              </button>
            )}
            <button
              type="button"
              className="topbar-button"
              onClick={() => {
                disconnect();
                setOpen(false);
              }}
            >
              {idle ? t('pilotFeed.forget') : t('pilotFeed.disconnect')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

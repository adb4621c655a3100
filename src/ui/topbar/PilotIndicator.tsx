import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { subscribe, useSnapshot } from 'valtio';
import { formatPairingCode } from '../../domain/pilot';
import { disconnect, dismissLinkProblem, pilot, reconnect, type PilotStatus } from '../../state/pilot';
import { announce } from '../LiveAnnouncer';
import { pairingCodeProblemText } from '../pilot/codeProblem';
import { timeAgo, timeUntil, useNow } from '../pilot/timeAgo';
import { useDismiss, type DismissReason } from '../useDismiss';
import './pilot-indicator.css';

const STATE_KEYS: Record<PilotStatus, string> = {
  connected: 'pilotFeed.connected',
  reconnecting: 'pilotFeed.reconnecting',
  off: 'pilotFeed.off',
  gone: 'pilotFeed.gone',
  limited: 'pilotFeed.limited',
};

/** A gone code's words when the server's `end` said why (whole keys, as the translation check looks for them). */
const ENDED_KEYS = { deleted: 'pilotFeed.ended', expired: 'pilotFeed.expired' } as const;

/**
 * The live position feed's state in the top bar, while the page follows a code or its link
 * carried one that is not a code: a dot, green (connected), a green ring (connected, but the
 * player is on another map than the page: the menu names it, with a link), a faded green
 * (connected, no position for PILOT_STALE_MS: "last seen …"), amber (reconnecting, or waiting
 * out a 429), grey (off, or the code gone) or red (the link's code is no code). Its name says
 * the state, the code and how long ago the last position came; a click opens Reconnect (when
 * off, gone or waiting) and Disconnect (stops following and forgets the code). A link with no
 * code opens the menu by itself with the reason, so the visitor knows why nothing is followed;
 * so does a followed code the server turns out not to know (once, as it learns it).
 * Reconnect keeps the menu open: it shows the new state, and "Still not found" when a gone
 * code is gone again (said by a live region).
 *
 * The focus never falls to the page (docs/DECISIONS.md "Focus after a change of state"): Escape
 * in the menu and Reconnect put it back on the dot's button; Disconnect / Forget this code, or
 * Close on a link's notice, that take the indicator away call `onGone`, which puts it on a
 * control that stays (the top bar's Where am I).
 */
export function PilotIndicator({ onGone }: { onGone?: () => void }) {
  const { t, i18n } = useTranslation();
  const { code, status, lastUpdateAt, retryAt, linkProblem, lastMap, pageMap, stale, endReason, stillGone } = useSnapshot(pilot);
  const [open, setOpen] = useState(false);
  const now = useNow(1000, code !== null);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  const close = useCallback((reason: DismissReason) => {
    setOpen(false);
    // Escape from within the menu: back on the button (Escape from elsewhere leaves the focus be).
    if (reason === 'escape' && box.current?.contains(document.activeElement)) button.current?.focus();
  }, []);
  useDismiss(open, box, close);
  // A bad link is said at once, not behind a click.
  useEffect(() => {
    if (linkProblem !== null) setOpen(true);
  }, [linkProblem]);
  // So is a code the server has just said is gone (unknown, mistyped, ended or expired: a 404 or
  // its `end`): the menu opens once by itself with the reason, and the page's live region says
  // it. Only as the feed learns it (from connecting or connected), not for a code remembered as
  // gone on a later page (it was said when it went), nor again for Reconnect's "Still not found"
  // (the menu's own result line says that). Heard in sync, every change of state: a render may
  // see 'off' then 'gone' when the answer comes before React renders 'reconnecting'.
  const [learntGone, setLearntGone] = useState(0);
  useEffect(() => {
    let before = pilot.status;
    return subscribe(
      pilot,
      () => {
        if (pilot.status === before) return;
        if (pilot.status === 'gone' && (before === 'reconnecting' || before === 'connected')) setLearntGone((n) => n + 1);
        before = pilot.status;
      },
      true,
    );
  }, []);
  useEffect(() => {
    if (learntGone === 0 || pilot.code === null || pilot.status !== 'gone') return;
    setOpen(true);
    if (pilot.stillGone) return;
    const key = pilot.endReason !== null ? ENDED_KEYS[pilot.endReason] : STATE_KEYS.gone;
    announce(t(key, { code: formatPairingCode(pilot.code) }));
    // Said once, in the language of the moment: not again when the language changes.
  }, [learntGone]);

  if (!code && linkProblem === null) return null;
  const wait = timeUntil(retryAt ?? now, now, i18n.language);
  const stateKey = status === 'gone' && endReason !== null ? ENDED_KEYS[endReason] : STATE_KEYS[status];
  const state = code ? t(stateKey, { code: formatPairingCode(code), wait }) : null;
  // The player is on another map than the one shown (the visitor opened it by hand).
  const elsewhere = code !== null && status === 'connected' && lastMap !== null && pageMap !== null && lastMap !== pageMap ? lastMap : null;
  const elsewhereName = elsewhere === null ? '' : t(`maps.${elsewhere}`, { defaultValue: elsewhere });
  const ago = lastUpdateAt === null ? '' : timeAgo(lastUpdateAt, now, i18n.language);
  // "Waiting for the next one" only while one may come: not for a feed that ended, is not
  // followed, or waits out a 429 (then it says when it asks again).
  const last =
    !code ? null
    : elsewhere !== null ? t('pilotFeed.elsewhere', { map: elsewhereName })
    : lastUpdateAt !== null ? t(stale && status === 'connected' ? 'pilotFeed.lastSeen' : 'pilotFeed.lastPosition', { ago })
    : status === 'connected' || status === 'reconnecting' ? t('pilotFeed.noPosition')
    : status === 'limited' ? t('pilotFeed.noPositionLimited', { wait })
    : null;
  const notice =
    linkProblem === null ? null : t('pilotFeed.linkInvalid', { text: linkProblem, reason: pairingCodeProblemText(t, linkProblem) ?? t('pilot.follow.empty') });
  const label = [notice, state, last].filter((text) => text !== null).join(' ');
  const idle = status === 'off' || status === 'gone' || status === 'limited';
  const look =
    linkProblem !== null ? 'invalid'
    : elsewhere !== null ? 'elsewhere'
    : status === 'connected' && stale ? 'stale'
    : status;

  const act = (action: () => void) => () => {
    action();
    setOpen(false);
    // The button pressed goes with the menu: the focus goes to the dot, or past it when it goes too.
    if (pilot.code || pilot.linkProblem !== null) button.current?.focus();
    else onGone?.();
  };

  // Reconnect keeps the menu open, its outcome shown there (and said: the live region below).
  const retry = () => {
    reconnect();
    button.current?.focus();
  };

  return (
    <div className="pilot-indicator" ref={box}>
      <button
        ref={button}
        type="button"
        className={`topbar-button pilot-indicator__button pilot-indicator--${look}`}
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
          {notice !== null && (
            <p className="pilot-indicator__notice" role="alert">
              {notice}
            </p>
          )}
          {state !== null && <p className="pilot-indicator__state">{state}</p>}
          {last !== null && <p className="pilot-indicator__last">{last}</p>}
          {elsewhere !== null && (
            <p className="pilot-indicator__elsewhere">
              <Link to={`/map/${elsewhere}`} onClick={() => setOpen(false)}>
                {t('pilotFeed.goToMap', { map: elsewhereName })}
              </Link>
            </p>
          )}
          <p className="pilot-indicator__result" role="status">
            {stillGone && status === 'gone' ? t('pilotFeed.stillGone') : ''}
          </p>
          <div className="pilot-indicator__actions">
            {code && idle && (
              <button type="button" className="topbar-button" onClick={retry}>
                {t('pilotFeed.reconnect')}
              </button>
            )}
            {code && (
              <button type="button" className="topbar-button" onClick={act(disconnect)}>
                {idle ? t('pilotFeed.forget') : t('pilotFeed.disconnect')}
              </button>
            )}
            {notice !== null && (
              <button type="button" className="topbar-button" onClick={act(dismissLinkProblem)}>
                {t('pilotFeed.close')}
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

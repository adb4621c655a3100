import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatPairingCode, pairingPath } from '../../domain/pilot';
import { forgetPairing, pair, pilotPublisher, refreshPairing } from '../../state/pilot';
import { CopyButton } from './CopyButton';
import { PairingQr } from './PairingQr';
import { WatcherCommand } from './WatcherCommand';

/** How often the number of watching pages is read while a session is open. */
const REFRESH_MS = 15_000;

/** The server's origin as the watcher and the links need it (this page's). */
const origin = () => globalThis.location?.origin ?? '';

/**
 * The session (pairing) made on this page: start one; then its code, large, the QR code and
 * link a phone opens to follow it, the watcher's command (its token hidden until asked), the
 * stream overlay's address, how many pages watch, and End session.
 *
 * The keyboard follows Start and End (docs/DECISIONS.md "Focus after a change of state"): the
 * button pressed is gone once it has done its work, so a started session takes the focus to its
 * heading ("Your live session", the code next) and an ended one to Start a live session. While
 * either works the button stays focusable (aria-disabled, not disabled, which would drop the
 * focus to the page), and a failure leaves the focus on it, the reason said by Last sent.
 */
export function PairingPanel() {
  const { t } = useTranslation();
  const { pairing, watchers, busy, sent } = useSnapshot(pilotPublisher);
  const code = pairing?.code ?? null;
  const heading = useRef<HTMLHeadingElement>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  // Where the focus goes once the pairing asked for by Start or End has come or gone.
  const focusNext = useRef<'session' | 'start' | null>(null);

  useEffect(() => {
    if (focusNext.current === 'session' && code) heading.current?.focus();
    else if (focusNext.current === 'start' && !code) startButton.current?.focus();
    else return;
    focusNext.current = null;
  }, [code]);

  async function start() {
    if (busy) return;
    focusNext.current = 'session';
    if (!(await pair())) focusNext.current = null;
  }

  async function end() {
    if (busy) return;
    focusNext.current = 'start';
    await forgetPairing();
    if (pilotPublisher.pairing) focusNext.current = null;
  }

  useEffect(() => {
    if (!code) return;
    void refreshPairing();
    const timer = setInterval(() => void refreshPairing(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [code]);

  if (!pairing) {
    return (
      <section className="pilot-card pilot-card--wide" aria-labelledby="pilot-pair-heading">
        <h2 id="pilot-pair-heading">{t('pilot.pair.heading')}</h2>
        <p>{t('pilot.pair.intro')}</p>
        <button ref={startButton} type="button" className="button pilot-start" aria-disabled={busy} onClick={() => void start()}>
          {busy ? t('pilot.pair.starting') : t('pilot.pair.start')}
        </button>
      </section>
    );
  }

  const map = sent.map ?? 'customs';
  const link = `${origin()}${pairingPath(pairing.code, map)}`;
  const overlay = `${origin()}/map/${map}?overlay=1&connection=${encodeURIComponent(pairing.code)}`;
  const shown = formatPairingCode(pairing.code);

  return (
    <section className="pilot-card pilot-card--wide" aria-labelledby="pilot-pair-heading">
      <h2 id="pilot-pair-heading" ref={heading} tabIndex={-1}>
        {t('pilot.pair.active')}
      </h2>
      <div className="pilot-pairing">
        <div className="pilot-pairing__main">
          <p className="pilot-pairing__label" id="pilot-code-label">
            {t('pilot.pair.code')}
          </p>
          <div className="pilot-row">
            <output className="pilot-code" aria-labelledby="pilot-code-label" data-testid="pilot-code">
              {shown}
            </output>
            <CopyButton text={shown} label={t('pilot.pair.copyCode')} />
          </div>
          <p className="pilot-watchers" role="status">
            {watchers === null ? t('pilot.pair.watchersUnknown') : t('pilot.pair.watchers', { count: watchers })}
          </p>
          <p className="pilot-pairing__label">{t('pilot.pair.link')}</p>
          <div className="pilot-row">
            <a className="pilot-mono pilot-break" href={link}>
              {link}
            </a>
            <CopyButton text={link} label={t('pilot.pair.copyLink')} />
          </div>
        </div>
        <figure className="pilot-pairing__qr">
          <PairingQr text={link} label={t('pilot.pair.qr', { code: shown })} />
          <figcaption>{t('pilot.pair.qrCaption')}</figcaption>
        </figure>
      </div>

      <h3>{t('pilot.pair.watcherHeading')}</h3>
      <p>{t('pilot.pair.watcherIntro')}</p>
      <WatcherCommand origin={origin()} code={pairing.code} token={pairing.token} />
      <p className="pilot-note">{t('pilot.pair.tokenNote')}</p>

      <h3>{t('pilot.pair.overlayHeading')}</h3>
      <p>{t('pilot.pair.overlayIntro')}</p>
      <div className="pilot-row">
        <code className="pilot-command pilot-break">{overlay}</code>
        <CopyButton text={overlay} label={t('pilot.pair.copyOverlay')} />
      </div>

      <p className="pilot-actions">
        <button type="button" className="button button--ghost" aria-disabled={busy} onClick={() => void end()}>
          {t('pilot.pair.end')}
        </button>
      </p>
    </section>
  );
}

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import { loadRememberedPairing, pilotPublisher } from '../../state/pilot';
import { FolderWatchPanel } from '../pilot/FolderWatchPanel';
import { FollowCode } from '../pilot/FollowCode';
import { LastSent } from '../pilot/LastSent';
import { MapPicker } from '../pilot/MapPicker';
import { PairingPanel } from '../pilot/PairingPanel';
import { TestFileName } from '../pilot/TestFileName';
import { LanguageSwitch } from '../topbar/LanguageSwitch';
import '../pilot/pilot-page.css';
import { useDocumentTitle } from '../useDocumentTitle';

/**
 * Route `/pilot`: the live position feed in the browser (issue 10). Start a session (a pairing
 * code, its QR code and link, the watcher's command, the stream overlay's address), send
 * positions from the screenshot folder, a pasted file name or a chosen map, see what was last
 * sent; or follow someone else's code. A reload keeps the session (state/pilot remembers it).
 */
export function PilotPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pilot.title'));
  const { pairing } = useSnapshot(pilotPublisher);

  useEffect(() => {
    loadRememberedPairing();
  }, []);

  return (
    <main className="page pilot-page">
      <header className="page__header">
        {/* EN / RU as on the home and map pages: a phone arriving from the QR code has no other way to switch. */}
        <div className="page__header-bar">
          <Link to="/" className="brand">
            {t('site.name')}
          </Link>
          <LanguageSwitch />
        </div>
        <h1>{t('pilot.heading')}</h1>
        <p className="page__tagline">{t('pilot.what')}</p>
      </header>
      <div className="pilot-grid">
        <PairingPanel />
        {pairing && (
          <>
            <FolderWatchPanel />
            <TestFileName />
            <MapPicker />
          </>
        )}
        <LastSent />
        <FollowCode />
      </div>
      <p className="pilot-actions">
        <Link to="/" className="button button--ghost">
          {t('pilot.back')}
        </Link>
      </p>
    </main>
  );
}

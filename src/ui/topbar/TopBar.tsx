import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import { layout, togglePanels } from '../../state/layout';
import { AccountMenu } from '../account/AccountMenu';
import { HelpPopup } from '../popups/HelpPopup';
import { LanguageSwitch } from './LanguageSwitch';
import { useFullscreen } from './useFullscreen';
import { usePosHash } from './usePosHash';
import { WhereAmI } from './WhereAmI';
import './topbar.css';

/** The map page's top bar: home, map name, Show / Hide panels, Full screen, Where am I, language, account. */
export function TopBar({ title }: { title: string }) {
  const { t } = useTranslation();
  const { panelsShown } = useSnapshot(layout);
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen();
  const [whereOpen, setWhereOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  usePosHash();

  return (
    <header className="map-topbar topbar">
      <div className="topbar__row">
        <Link to="/" className="map-topbar__home">
          {t('site.home')}
        </Link>
        <h1 className="map-topbar__title">{title}</h1>
        <span className="topbar__divider" aria-hidden="true" />
        <button type="button" className="topbar-button" onClick={togglePanels}>
          {panelsShown ? t('topbar.hidePanels') : t('topbar.showPanels')}
        </button>
        <button type="button" className="topbar-button" onClick={toggleFullscreen}>
          {fullscreen ? t('topbar.exitFullScreen') : t('topbar.fullScreen')}
        </button>
        <button
          type="button"
          className="topbar-button"
          aria-expanded={whereOpen}
          onClick={() => setWhereOpen((open) => !open)}
        >
          {t('topbar.whereAmI')}
        </button>
        <LanguageSwitch />
        <AccountMenu />
      </div>
      {whereOpen && <WhereAmI onHelp={() => setHelpOpen(true)} />}
      {/* On the body, so no panel's stacking order can cover it. */}
      {helpOpen && createPortal(<HelpPopup onClose={() => setHelpOpen(false)} />, document.body)}
    </header>
  );
}

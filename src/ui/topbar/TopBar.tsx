import { memo, useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import { can } from '../../domain/roles';
import { isNarrowWindow, layout, togglePanels, togglePointTools } from '../../state/layout';
import { session } from '../../state/session';
import { afterNextFrame } from '../afterNextFrame';
import { announce } from '../LiveAnnouncer';
import { AccountMenu } from '../account/AccountMenu';
import { HelpPopup } from '../popups/HelpPopup';
import { LanguageSwitch } from './LanguageSwitch';
import { PilotIndicator } from './PilotIndicator';
import { useFullscreen } from './useFullscreen';
import { usePosHash } from './usePosHash';
import { WhereAmI, type PosLinkProblem } from './WhereAmI';
import { useDismiss, type DismissReason } from '../useDismiss';
import { usePublishedLength } from '../usePublishedLength';
import './topbar.css';

/**
 * The map page's top bar: home, map name, Where am I, the live feed's state, then Show / Hide
 * panels, Full screen, language and account. On a phone (NARROW_QUERY) the bar is one compact
 * row and those last four fold into a Menu button's drop-down. An admin's Alt-click on the bar
 * shows or hides the point-history buttons (spec §2). Memoised: the map page re-renders as its
 * manifest and markers arrive, and the bar has nothing to redo then (issue 11's first second).
 *
 * The Menu is a disclosure: Escape with the focus in it, or a press on Show / Hide panels or
 * Full screen, folds it with the focus back on Menu (its items hide, and a hidden item's focus
 * would fall to the page; docs/DECISIONS.md "Focus after a change of state").
 */
export const TopBar = memo(function TopBar({ title }: { title: string }) {
  const { t } = useTranslation();
  const { panelsShown, accountDialog } = useSnapshot(layout);
  const { user } = useSnapshot(session);
  const admin = can(user, 'adminTools');
  const { fullscreen, toggle: toggleFullscreen } = useFullscreen();
  const [whereOpen, setWhereOpen] = useState(false);
  // A `#pos=` in the address that was not three numbers: the box opens and says so.
  const [badPosLink, setBadPosLink] = useState<PosLinkProblem | null>(null);
  const whereButton = useRef<HTMLButtonElement>(null);
  // Escape in the box: folded, and the keyboard user is back on the button that opened it.
  const foldWhere = useCallback(() => {
    setWhereOpen(false);
    setBadPosLink(null);
    whereButton.current?.focus();
  }, []);
  // The live indicator gone (its code forgotten): the focus goes to Where am I beside it.
  const focusWhere = useCallback(() => whereButton.current?.focus(), []);
  const [helpOpen, setHelpOpen] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const moreId = useId();
  const [bar, setBar] = useState<HTMLElement | null>(null);
  const moreToggle = useRef<HTMLButtonElement>(null);
  const morePanel = useRef<HTMLDivElement>(null);
  // Bumped to put the focus on Menu once the folded menu has rendered: after the render, so an
  // inner menu's own Escape (the account menu's, focusing its hidden button) does not win.
  const [moreFocusRequest, setMoreFocusRequest] = useState(0);
  useEffect(() => {
    if (moreFocusRequest > 0) moreToggle.current?.focus();
  }, [moreFocusRequest]);
  const foldMore = useCallback((reason?: DismissReason) => {
    setMoreOpen(false);
    if (reason !== 'outside' && morePanel.current?.contains(document.activeElement)) setMoreFocusRequest((n) => n + 1);
  }, []);
  useDismiss(moreOpen, bar, foldMore);
  useSignInHeard(accountDialog !== null, user?.name ?? null, morePanel, moreToggle);
  // Where the bar ends, so the side panels start under it however many rows it wraps to.
  usePublishedLength(bar, '--topbar-bottom', (box) => box.bottom);
  usePosHash(
    useCallback((problem: PosLinkProblem) => {
      setBadPosLink(problem);
      setWhereOpen(true);
    }, []),
  );

  return (
    <header
      ref={setBar}
      className="map-topbar topbar"
      onClickCapture={
        admin
          ? (event) => {
              // Not from the help popup, portalled to the body but still a React child of the bar.
              if (!event.altKey || !event.currentTarget.contains(event.target as Node)) return;
              // Alt-click is the bar's (spec §2), wherever it lands: a button or link under it does
              // not act too (Hide panels hid the panels, All maps left; Chrome downloads an Alt-clicked link).
              event.preventDefault();
              event.stopPropagation();
              togglePointTools();
            }
          : undefined
      }
    >
      <div className="topbar__row">
        <Link to="/" className="map-topbar__home">
          <span className="map-topbar__home-arrow" aria-hidden="true">
            ‹
          </span>
          <span className="map-topbar__home-label">{t('site.home')}</span>
        </Link>
        <h1 className="map-topbar__title">{title}</h1>
        <span className="topbar__divider" aria-hidden="true" />
        <button
          ref={whereButton}
          type="button"
          className="topbar-button"
          aria-expanded={whereOpen}
          onClick={() => {
            setWhereOpen((open) => !open);
            setBadPosLink(null);
            // The phone's Menu sheet would stay open over the map under the box (the button is in
            // the bar, so no press outside folds it): it folds, and the focus goes to the box.
            setMoreOpen(false);
          }}
        >
          {t('topbar.whereAmI')}
        </button>
        <PilotIndicator onGone={focusWhere} />
        <button
          ref={moreToggle}
          type="button"
          className="topbar-button topbar__more-toggle"
          aria-expanded={moreOpen}
          aria-controls={moreId}
          onClick={() => setMoreOpen((open) => !open)}
        >
          {t('topbar.menu')}
        </button>
        <div id={moreId} ref={morePanel} className={moreOpen ? 'topbar__more topbar__more--open' : 'topbar__more'}>
          <button
            type="button"
            className="topbar-button"
            onClick={() => {
              togglePanels();
              if (moreOpen) foldMore();
            }}
          >
            {panelsShown ? t('topbar.hidePanels') : t('topbar.showPanels')}
          </button>
          <button
            type="button"
            className="topbar-button"
            onClick={() => {
              toggleFullscreen();
              if (moreOpen) foldMore();
            }}
          >
            {fullscreen ? t('topbar.exitFullScreen') : t('topbar.fullScreen')}
          </button>
          <Link to="/progression/quests" className="topbar-button">
            {t('topbar.quests')}
          </Link>
          <LanguageSwitch />
          <AccountMenu />
        </div>
      </div>
      {whereOpen && <WhereAmI key={badPosLink ? JSON.stringify(badPosLink) : ''} onHelp={() => setHelpOpen(true)} onClose={foldWhere} badPosLink={badPosLink} />}
      {/* On the body, so no panel's stacking order can cover it. */}
      {helpOpen && createPortal(<HelpPopup onClose={() => setHelpOpen(false)} />, document.body)}
    </header>
  );
});


/**
 * Signed in from the account dialog opened from the phone's Menu: the account menu puts the focus
 * on its button, but that is in the folded Menu, hidden, so the focus fell to the page's body and
 * nothing said the sign-in worked. Then the focus goes to Menu, and the live region says who is
 * signed in (the account button, on a wide bar, says it by its name). A sign-in for a quest action
 * leaves the focus on that action's control, as the account menu does.
 */
function useSignInHeard(dialogOpen: boolean, name: string | null, morePanel: RefObject<HTMLElement | null>, moreToggle: RefObject<HTMLButtonElement | null>) {
  const { t } = useTranslation();
  // Signed out while the dialog was open: a sign-in from it is to be heard once it closes.
  const signingIn = useRef(false);
  useEffect(() => {
    if (dialogOpen) {
      if (!name) signingIn.current = true;
      return;
    }
    if (!signingIn.current) return;
    signingIn.current = false;
    if (!name || !isNarrowWindow()) return;
    // After the dialog has closed and the account menu has moved the focus.
    return afterNextFrame(() => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !!morePanel.current?.contains(active);
      if (!lost || moreToggle.current?.getAttribute('aria-expanded') === 'true') return;
      moreToggle.current?.focus();
      announce(t('account.menu.signedInAs', { name }));
    });
  }, [dialogOpen, name, morePanel, moreToggle, t]);
}

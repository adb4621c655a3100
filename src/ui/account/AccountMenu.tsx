/**
 * The account corner of the top bar and the home page: "Sign in" for a signed-out visitor,
 * or the account name with its role badge, opening a small menu with who is signed in and
 * "Sign out". It also hosts the account dialog (layout.accountDialog), so the upsell popup
 * can open it too. Everything it shows comes from the `session` slice.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { roleOf } from '../../domain/roles';
import { layout, openAccountDialog } from '../../state/layout';
import { session, signOut, type SignInReason } from '../../state/session';
import { failureCause } from '../requestFailure';
import { AccountDialog } from './AccountDialog';
import { AccountsPopup } from './AccountsPopup';
import './account.css';

export function AccountMenu() {
  const { t } = useTranslation();
  const { user, status } = useSnapshot(session);
  const { accountDialog } = useSnapshot(layout);
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  // The failure itself, said at render: the message follows a language switch (the switch is next to it).
  const [signOutError, setSignOutError] = useState<{ failure: unknown } | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  // Bumped to move focus back to the account button once it has been (re)rendered.
  const [focusRequest, setFocusRequest] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const id = useId();

  useEffect(() => {
    if (focusRequest > 0) buttonRef.current?.focus();
  }, [focusRequest]);

  useEffect(() => {
    if (!menuOpen) return;
    menuItems(menuRef.current)[0]?.focus();
    const onPointerDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      setMenuOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [menuOpen]);

  // A signed-out (or newly signed-in) user has no menu to keep open.
  const signedInName = user?.name;
  useEffect(() => setMenuOpen(false), [signedInName]);

  async function onSignOut() {
    if (signingOut) return;
    setSigningOut(true);
    setSignOutError(null);
    try {
      await signOut();
    } catch (error) {
      // signOut() forgot the user here anyway; say that the server may still hold the session.
      // In the page's language, never the browser's "Failed to fetch" or a status's reason phrase.
      setSignOutError({ failure: error });
    } finally {
      setSigningOut(false);
      setMenuOpen(false);
      setFocusRequest((n) => n + 1);
    }
  }

  /**
   * Signed in from the dialog: focus to the account button (it now shows the name), unless a
   * quest action asked for the sign-in — that action is carried out now, and the dialog's popup
   * gives the focus back to the control the user pressed (or the upsell popup takes it).
   */
  function afterSignIn(askedFor: SignInReason | null) {
    if (askedFor !== 'saveAction') setFocusRequest((n) => n + 1);
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const items = menuItems(menuRef.current);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (event.key === 'Tab') setMenuOpen(false);
    if (!(event.key in next) || items.length === 0) return;
    event.preventDefault();
    items[(next[event.key] + items.length) % items.length].focus();
  }

  function openMenuFromKeyboard(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    setMenuOpen(true);
  }

  let corner;
  if (!user && (status === 'unknown' || status === 'loading')) {
    // Not known yet: hold the place of "Sign in" without offering it (no flash for a signed-in user).
    corner = (
      <button type="button" className="account-menu__button account-menu__button--pending" disabled aria-label={t('account.menu.checking')} ref={buttonRef}>
        <span aria-hidden="true">{t('account.menu.signIn')}</span>
      </button>
    );
  } else if (!user) {
    corner = (
      <>
        {status === 'error' && <span className="account-menu__note">{t('account.menu.sessionUnknown')}</span>}
        <button
          type="button"
          className="account-menu__button"
          ref={buttonRef}
          onClick={() => {
            setSignOutError(null);
            openAccountDialog('signIn');
          }}
        >
          {t('account.menu.signIn')}
        </button>
        {signOutError && (
          <p role="alert" className="account-menu__error">
            {t('account.menu.signOutFailed', { message: failureCause(t, signOutError.failure) })}
          </p>
        )}
      </>
    );
  } else {
    const role = roleOf(user);
    const badge = role === 'admin' ? t('account.menu.badgeAdmin') : role === 'pro' ? t('account.menu.badgePro') : null;
    const roleWords = role === 'admin' ? t('account.menu.roleAdmin') : role === 'pro' ? t('account.menu.rolePro') : t('account.menu.roleVisitor');
    corner = (
      <>
        <button
          type="button"
          id={`${id}-button`}
          className="account-menu__button account-menu__button--user"
          ref={buttonRef}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? `${id}-menu` : undefined}
          onClick={() => setMenuOpen((open) => !open)}
          onKeyDown={openMenuFromKeyboard}
        >
          <span className="account-menu__name">{user.name}</span>
          {/* The space keeps the accessible name "pro Pro", not "proPro". */}
          {badge && ' '}
          {badge && <span className={`account-menu__badge account-menu__badge--${role}`}>{badge}</span>}
        </button>
        {menuOpen && (
          <div className="account-menu__popover">
            <p className="account-menu__who">
              <span>{t('account.menu.signedInAs', { name: user.name })}</span>
              <span className="account-menu__role">{roleWords}</span>
            </p>
            <ul ref={menuRef} id={`${id}-menu`} role="menu" aria-labelledby={`${id}-button`} className="account-menu__items" onKeyDown={onMenuKeyDown}>
              {role === 'admin' && (
                <li role="none">
                  <button
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    className="account-menu__item"
                    onClick={() => {
                      setMenuOpen(false);
                      setAccountsOpen(true);
                    }}
                  >
                    {t('account.accounts.open')}
                  </button>
                </li>
              )}
              <li role="none">
                <button type="button" role="menuitem" tabIndex={-1} className="account-menu__item" aria-disabled={signingOut} onClick={() => void onSignOut()}>
                  {t('account.menu.signOut')}
                </button>
              </li>
            </ul>
          </div>
        )}
      </>
    );
  }

  return (
    <div className="account-menu" ref={rootRef}>
      {corner}
      {/* On the body, so no panel's stacking order can cover it. */}
      {accountsOpen && user?.admin && createPortal(<AccountsPopup onClose={() => setAccountsOpen(false)} />, document.body)}
      {accountDialog && createPortal(<AccountDialog form={accountDialog} onSignedIn={afterSignIn} />, document.body)}
    </div>
  );
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')] : [];
}

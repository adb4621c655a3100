/**
 * For admins: every account with a Pro switch (payment is out of scope; pro is granted here or
 * with `npm run user -- grant-pro`). Each switch saves at once and shows the server's answer;
 * a failure leaves the switch as it was and says why. Admin accounts are listed without a
 * switch: admins are made with the command-line tool only.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listAccounts, setAccountPro, type AccountSummary } from '../../api/account';
import { technicalFailureReason } from '../requestFailure';
import { Popup } from '../popups/Popup';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; accounts: AccountSummary[] };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function AccountsPopup({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [saving, setSaving] = useState<string | null>(null);
  // The failed switch (its account and the error's own words), said at render: the message
  // follows a language switch made while it shows.
  const [error, setError] = useState<{ name: string; message: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listAccounts(controller.signal)
      .then((accounts) => setLoad({ status: 'ready', accounts }))
      .catch((reason: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'error', message: messageOf(reason) });
      });
    return () => controller.abort();
  }, []);

  async function switchPro(account: AccountSummary, pro: boolean) {
    setSaving(account.name);
    setError(null);
    try {
      const saved = await setAccountPro(account.name, pro);
      setLoad((current) => (current.status === 'ready' ? { status: 'ready', accounts: current.accounts.map((a) => (a.name === account.name ? saved : a)) } : current));
    } catch (reason) {
      setError({ name: account.name, message: messageOf(reason) });
    } finally {
      setSaving(null);
    }
  }

  // The server's own explanation as it came; technical words ("Failed to fetch", a status's
  // reason phrase) said by their kind in the page's language, as every request failure is.
  const said = (message: string) => technicalFailureReason(t, message) ?? message;

  return (
    <Popup title={t('account.accounts.title')} onClose={onClose} maxWidth={420} className="accounts-popup">
      <p className="accounts-popup__intro">{t('account.accounts.intro')}</p>
      {load.status === 'loading' && <p role="status">{t('account.accounts.loading')}</p>}
      {load.status === 'error' && <p role="alert">{t('account.accounts.loadFailed', { message: said(load.message) })}</p>}
      {error && <p role="alert">{t('account.accounts.saveFailed', { name: error.name, message: said(error.message) })}</p>}
      {load.status === 'ready' && (
        <ul className="accounts-popup__list">
          {load.accounts.map((account) => (
            <li key={account.name} className="accounts-popup__row">
              <span className="accounts-popup__name">{account.name}</span>
              {account.admin ? (
                <span className="accounts-popup__role">{t('account.menu.badgeAdmin')}</span>
              ) : (
                <label className="accounts-popup__pro">
                  <input
                    type="checkbox"
                    checked={account.pro}
                    disabled={saving !== null}
                    aria-label={t('account.accounts.proFor', { name: account.name })}
                    onChange={(event) => void switchPro(account, event.target.checked)}
                  />
                  <span aria-hidden="true">{t('account.menu.badgePro')}</span>
                </label>
              )}
            </li>
          ))}
        </ul>
      )}
    </Popup>
  );
}

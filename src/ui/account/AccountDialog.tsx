/**
 * The account dialog (layout.accountDialog): sign in, or create an account, with a name and a
 * password. The sign-up form states the server's rules and checks the quick ones (lengths,
 * the name inside the password) before sending; the strength check is the server's, and its
 * refusal says why (zxcvbn's reasons, translated). A refusal from the server (wrong password,
 * name taken, weak password, too many attempts) shows as an alert and the dialog stays open. On success the session holds the user and the dialog closes.
 *
 * Opened by the page itself (a session that ended: `session.signInReason`), the sign-in form says
 * why above its fields; closing the dialog without signing in gives that sign-in up (giveUpSignIn).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../api/client';
import { closeAccountDialog, openAccountDialog } from '../../state/layout';
import { giveUpSignIn, session, signIn, signUp, type SignInReason } from '../../state/session';
import { Popup } from '../popups/Popup';
import { accountErrorText, type AccountForm } from './accountError';
import { nameProblem, passwordProblem, type NameProblem, type PasswordProblem } from '../../domain/account';
import './account.css';

const REASON_TEXT: Record<SignInReason, string> = {
  sessionEnded: 'account.dialog.reasonSessionEnded',
  sessionEndedPro: 'account.dialog.reasonSessionEndedPro',
  saveAction: 'account.dialog.reasonSaveAction',
};

/** Closed without signing in (Close, Escape, a click outside): what the sign-in was asked for is dropped. */
function closeWithoutSignIn(): void {
  giveUpSignIn();
  closeAccountDialog();
}

export interface AccountDialogProps {
  form: AccountForm;
  /** Called once the user is signed in and the dialog has closed. */
  onSignedIn: () => void;
}

export function AccountDialog({ form, onSignedIn }: AccountDialogProps) {
  const { t } = useTranslation();
  const { signInReason } = useSnapshot(session);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const signingUp = form === 'signUp';
  // Why the page asks for a sign-in; the sign-up form (a new account) has nothing to say about it.
  const reason = signInReason && !signingUp ? t(REASON_TEXT[signInReason]) : null;

  // After the popup has focused itself: start typing in the name field.
  useEffect(() => {
    nameRef.current?.focus();
  }, [form]);

  // Sign-in only needs both fields filled; sign-up checks the server's rules as the user types.
  const nameIssue: NameProblem | null = signingUp ? nameProblem(name) : name === '' ? 'empty' : null;
  const passwordIssue: PasswordProblem | null = signingUp ? passwordProblem(password, nameIssue ? '' : name) : password === '' ? 'empty' : null;
  const showNameIssue = nameIssue !== null && (submitted || nameIssue !== 'empty');
  const showPasswordIssue = passwordIssue !== null && (submitted || passwordIssue !== 'empty');

  const nameText = showNameIssue
    ? nameIssue === 'empty'
      ? t('account.dialog.nameEmpty')
      : nameIssue === 'characters'
        ? t('account.dialog.nameCharacters')
        : t('account.dialog.nameLength')
    : signingUp
      ? t('account.dialog.nameHint')
      : null;
  const passwordText = showPasswordIssue
    ? passwordIssue === 'empty'
      ? t('account.dialog.passwordEmpty')
      : passwordIssue === 'name'
        ? t('account.dialog.passwordName')
        : t('account.dialog.passwordLength')
    : signingUp
      ? t('account.dialog.passwordHint')
      : null;

  function switchForm() {
    setSubmitted(false);
    setError(null);
    openAccountDialog(signingUp ? 'signIn' : 'signUp');
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setSubmitted(true);
    if (nameIssue || passwordIssue) {
      (nameIssue ? nameRef : passwordRef).current?.focus();
      return;
    }
    setSending(true);
    setError(null);
    try {
      await (signingUp ? signUp : signIn)({ name, password });
    } catch (caught) {
      setError(accountErrorText(t, caught, form, name));
      setSending(false);
      // Put the caret where the fix goes: the name when it is taken, else the password.
      const field = caught instanceof ApiError && caught.status === 409 ? nameRef.current : passwordRef.current;
      field?.focus();
      field?.select();
      return;
    }
    closeAccountDialog();
    onSignedIn();
  }

  const title = signingUp ? t('account.dialog.signUpTitle') : t('account.dialog.signInTitle');
  return (
    <Popup title={title} onClose={closeWithoutSignIn} maxWidth={380} className="account-dialog">
      <form className="account-dialog__form" noValidate onSubmit={(event) => void submit(event)}>
        {reason && (
          <p id={`${id}-reason`} className="account-dialog__reason">
            {reason}
          </p>
        )}
        <div className="account-dialog__field">
          <label htmlFor={`${id}-name`}>{t('account.dialog.name')}</label>
          <input
            ref={nameRef}
            id={`${id}-name`}
            className="account-dialog__input"
            type="text"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={showNameIssue}
            // The name field has the focus as the dialog opens: a screen reader reads the reason with it.
            aria-describedby={[reason && `${id}-reason`, nameText && `${id}-name-hint`].filter(Boolean).join(' ') || undefined}
          />
          {nameText && (
            <p id={`${id}-name-hint`} className={showNameIssue ? 'account-dialog__hint account-dialog__hint--problem' : 'account-dialog__hint'} aria-live="polite">
              {nameText}
            </p>
          )}
        </div>
        <div className="account-dialog__field">
          <label htmlFor={`${id}-password`}>{t('account.dialog.password')}</label>
          <input
            ref={passwordRef}
            id={`${id}-password`}
            className="account-dialog__input"
            type="password"
            name="password"
            autoComplete={signingUp ? 'new-password' : 'current-password'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={showPasswordIssue}
            aria-describedby={passwordText ? `${id}-password-hint` : undefined}
          />
          {passwordText && (
            <p id={`${id}-password-hint`} className={showPasswordIssue ? 'account-dialog__hint account-dialog__hint--problem' : 'account-dialog__hint'} aria-live="polite">
              {passwordText}
            </p>
          )}
        </div>
        {error && (
          <p role="alert" className="account-dialog__error">
            {error}
          </p>
        )}
        <div className="account-dialog__actions">
          <button type="submit" className="button" disabled={sending} aria-busy={sending}>
            {signingUp ? t('account.dialog.signUp') : t('account.dialog.signIn')}
          </button>
          <button type="button" className="account-dialog__switch" onClick={switchForm}>
            {signingUp ? t('account.dialog.toSignIn') : t('account.dialog.toSignUp')}
          </button>
        </div>
      </form>
    </Popup>
  );
}

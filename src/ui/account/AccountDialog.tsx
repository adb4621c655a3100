/**
 * The account dialog (layout.accountDialog): sign in, or create an account, with a name and a
 * password. The sign-up form states the server's rules and checks the quick ones (lengths,
 * the name inside the password) before sending; the strength check is the server's, and its
 * refusal says why (zxcvbn's reasons, translated). A refusal from the server (wrong password,
 * name taken, weak password, too many attempts) shows as an alert and the dialog stays open; the
 * alert goes once the user changes the field it was about, or when the form's own checks stop the
 * next try. On success the session holds the user and the dialog closes.
 *
 * The name is sent trimmed (spaces pasted around it are no part of any name; the server trims it
 * too); the password never is. Both forms hold the name to the sign-up length rule: no account has
 * a longer name, and the server's English refusal of a long one would never reach the page.
 *
 * Opened by the page itself (a session that ended: `session.signInReason`), the sign-in form says
 * why above its fields; closing the dialog without signing in gives that sign-in up (giveUpSignIn).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { closeAccountDialog, openAccountDialog } from '../../state/layout';
import { giveUpSignIn, session, signIn, signUp, type SignInReason } from '../../state/session';
import { Popup } from '../popups/Popup';
import { accountErrorField, accountErrorText, type AccountErrorField, type AccountForm } from './accountError';
import { NAME_LENGTH, nameProblem, passwordProblem, type NameProblem, type PasswordProblem } from '../../domain/account';
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
  /** Called once the user is signed in and the dialog has closed, with why the page had asked for the sign-in (null: the user chose to). */
  onSignedIn: (askedFor: SignInReason | null) => void;
}

export function AccountDialog({ form, onSignedIn }: AccountDialogProps) {
  const { t } = useTranslation();
  const { signInReason } = useSnapshot(session);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<{ text: string; field: AccountErrorField } | null>(null);
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

  // Sign-in only needs both fields filled (a name no longer than any account's); sign-up checks
  // the server's rules as the user types.
  const trimmedName = name.trim();
  const nameIssue: NameProblem | null = signingUp ? nameProblem(trimmedName) : trimmedName === '' ? 'empty' : trimmedName.length > NAME_LENGTH.max ? 'length' : null;
  const passwordIssue: PasswordProblem | null = signingUp ? passwordProblem(password, nameIssue ? '' : trimmedName) : password === '' ? 'empty' : null;
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
    // A refusal of an earlier try is not what stops this one.
    setError(null);
    if (nameIssue || passwordIssue) {
      (nameIssue ? nameRef : passwordRef).current?.focus();
      return;
    }
    setSending(true);
    // The sign-in clears the session's reason before it answers: keep it for onSignedIn.
    const askedFor = signInReason;
    try {
      await (signingUp ? signUp : signIn)({ name: trimmedName, password });
    } catch (caught) {
      setError({ text: accountErrorText(t, caught, form, trimmedName), field: accountErrorField(caught, form) });
      setSending(false);
      // Put the caret where the fix goes: the name when it is taken (or breaks a rule), else the password.
      const field = accountErrorField(caught, form) === 'name' ? nameRef.current : passwordRef.current;
      field?.focus();
      field?.select();
      return;
    }
    closeAccountDialog();
    onSignedIn(askedFor);
  }

  /** The user changed `field`: a refusal about it (or about both) is out of date. */
  function changed(field: 'name' | 'password') {
    setError((shown) => (shown && (shown.field === field || shown.field === 'both') ? null : shown));
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
            onChange={(event) => {
              setName(event.target.value);
              changed('name');
            }}
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
            onChange={(event) => {
              setPassword(event.target.value);
              changed('password');
            }}
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
            {error.text}
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

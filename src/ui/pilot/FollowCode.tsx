import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { normalizePairingCode, pairingPath } from '../../domain/pilot';
import { pilot } from '../../state/pilot';
import { pairingCodeProblemText } from './codeProblem';

/** "Follow a code": a code typed here opens the map following it (the last map it showed, or Customs). */
export function FollowCode() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = pairingCodeProblemText(t, value);
    const code = normalizePairingCode(value);
    if (text !== null || code === null) {
      setProblem(text ?? t('pilot.follow.empty'));
      return;
    }
    void navigate(pairingPath(code, pilot.lastMap ?? 'customs'));
  };

  return (
    <section className="pilot-card" aria-labelledby="pilot-follow-heading">
      <h2 id="pilot-follow-heading">{t('pilot.follow.heading')}</h2>
      <p>{t('pilot.follow.intro')}</p>
      <form className="pilot-form" onSubmit={submit} noValidate>
        <label className="pilot-field" htmlFor={`${id}-code`}>
          <span>{t('pilot.follow.label')}</span>
        </label>
        <input
          id={`${id}-code`}
          type="text"
          className="pilot-input pilot-mono pilot-input--code"
          value={value}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="ABCDE-FGHJK"
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
          }}
        />
        <button type="submit" className="button">
          {t('pilot.follow.go')}
        </button>
      </form>
      {problem && (
        <p id={`${id}-problem`} className="pilot-problem" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

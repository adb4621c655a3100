import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { normalizePairingCode, pairingPath } from '../../domain/pilot';
import { pilot } from '../../state/pilot';
import { pairingCodeProblemText } from './codeProblem';
import { checkFollowCode, followCheckText, openAnyway } from './followCheck';

/** What is said by the field: the words, whether the code itself is at fault, and a code the map may still be opened for. */
interface Problem {
  text: string;
  invalid: boolean;
  goAnyway: string | null;
}

/**
 * "Follow a code": a code typed here opens the map following it (the last map it showed, or
 * Customs), once the server says it is live (GET /api/be/pilot/{code}): a mistyped or ended
 * code is said here, by the field, with the code kept for correcting and the focus in the field,
 * rather than on a map page that follows nothing. A check the server could not answer, or refused
 * for a while (429), offers the map anyway (followCheck.ts openAnyway). The check adds no
 * guess to the server's count (docs/PILOT.md "Limits"): a live code counts nothing, and an
 * unknown one counts once however often it is asked for, as the map page would have asked too.
 */
export function FollowCode() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [checking, setChecking] = useState(false);
  /** The check in flight: aborted when the code is edited or the page closes. */
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  const go = (code: string) => void navigate(pairingPath(code, pilot.lastMap ?? 'customs'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    const text = pairingCodeProblemText(t, value);
    const code = normalizePairingCode(value);
    if (text !== null || code === null) {
      setProblem({ text: text ?? t('pilot.follow.empty'), invalid: true, goAnyway: null });
      return;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    setChecking(true);
    setProblem(null);
    checkFollowCode(code, controller.signal).then(
      (check) => {
        if (controller.signal.aborted) return;
        inFlight.current = null;
        setChecking(false);
        const said = followCheckText(t, check, code, Date.now(), i18n.language);
        if (said === null) {
          go(code);
          return;
        }
        setProblem({ text: said, invalid: check.kind === 'unknown', goAnyway: openAnyway(check) ? code : null });
        // Back in the field to correct the code (a tap on Follow left the focus on the button).
        input.current?.focus();
      },
      () => undefined, // Aborted: the code was edited (or the page closed) while it was checked.
    );
  };

  return (
    <section className="pilot-card" aria-labelledby="pilot-follow-heading">
      <h2 id="pilot-follow-heading">{t('pilot.follow.heading')}</h2>
      <p>{t('pilot.follow.intro')}</p>
      <form className="pilot-form" onSubmit={submit} noValidate aria-busy={checking}>
        <label className="pilot-field" htmlFor={`${id}-code`}>
          <span>{t('pilot.follow.label')}</span>
        </label>
        <input
          ref={input}
          id={`${id}-code`}
          type="text"
          className="pilot-input pilot-mono pilot-input--code"
          value={value}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="ABCDE-FGHJK"
          aria-invalid={problem?.invalid ?? false}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setProblem(null);
            // Another code now: the answer about the old one no longer counts.
            inFlight.current?.abort();
            inFlight.current = null;
            setChecking(false);
          }}
        />
        <button type="submit" className="button">
          {checking ? t('pilot.follow.checking') : t('pilot.follow.go')}
        </button>
      </form>
      {problem && (
        <p id={`${id}-problem`} className="pilot-problem" role="alert">
          {problem.text}
        </p>
      )}
      {problem?.goAnyway && (
        <p className="pilot-actions">
          <button type="button" className="button button--ghost" onClick={() => go(problem.goAnyway!)}>
            {t('pilot.follow.goAnyway')}
          </button>
        </p>
      )}
    </section>
  );
}

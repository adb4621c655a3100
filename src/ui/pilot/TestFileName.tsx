import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { positionFromScreenshotFile } from '../../domain/pilot-watcher';
import type { PlayerPosition } from '../../domain/position';
import { publish } from '../../state/pilot';
import { positionWords } from './LastSent';

/** A pasted name with or without its extension (Explorer's rename leaves it out). */
function positionOf(name: string): PlayerPosition | null {
  const text = name.trim();
  return positionFromScreenshotFile(text) ?? positionFromScreenshotFile(`${text}.png`);
}

type Result = { kind: 'sent'; position: PlayerPosition } | { kind: 'invalid' } | { kind: 'refused' } | null;

/** "Test with a file name": a pasted screenshot name is sent as the position, or said not to hold one. */
export function TestFileName() {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  const [result, setResult] = useState<Result>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const position = positionOf(name);
    if (!position) {
      setResult({ kind: 'invalid' });
      return;
    }
    setSending(true);
    const ok = await publish({ type: 'position', data: position });
    setSending(false);
    setResult(ok ? { kind: 'sent', position } : { kind: 'refused' });
  };

  return (
    <section className="pilot-card" aria-labelledby="pilot-test-heading">
      <h2 id="pilot-test-heading">{t('pilot.test.heading')}</h2>
      <p>{t('pilot.test.intro')}</p>
      <form className="pilot-form pilot-form--column" onSubmit={(event) => void submit(event)}>
        <label className="pilot-field" htmlFor={`${id}-name`}>
          <span>{t('pilot.test.label')}</span>
        </label>
        <input
          id={`${id}-name`}
          type="text"
          className="pilot-input pilot-mono"
          value={name}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('whereAmI.placeholder')}
          aria-describedby={`${id}-result`}
          onChange={(event) => {
            setName(event.target.value);
            setResult(null);
          }}
        />
        <button type="submit" className="button" disabled={sending || name.trim() === ''}>
          {t('pilot.test.send')}
        </button>
      </form>
      <div id={`${id}-result`} aria-live="polite">
        {result?.kind === 'sent' && <p className="pilot-ok">{t('pilot.test.sent', { position: positionWords(t, result.position) })}</p>}
        {result?.kind === 'invalid' && (
          <p className="pilot-problem" role="alert">
            {t('pilot.test.invalid')}
          </p>
        )}
        {result?.kind === 'refused' && <p className="pilot-problem">{t('pilot.test.refused')}</p>}
      </div>
    </section>
  );
}

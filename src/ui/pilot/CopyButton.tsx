import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A button that copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button type="button" className="button button--ghost pilot-copy" aria-label={label} onClick={() => void copy()}>
      {state === 'copied' ? t('pilot.copied') : state === 'failed' ? t('pilot.copyFailed') : t('pilot.copy')}
    </button>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from './CopyButton';

/** What stands for the publisher token while it is hidden (the same length whatever the token). */
export const HIDDEN_TOKEN = '•'.repeat(12);

/** The watcher's command line for a session, with `token` as given or hidden. */
export function watcherCommand(origin: string, code: string, token: string): string {
  return `npm run pilot -- --server ${origin} --code ${code} --token ${token}`;
}

/**
 * The watcher's command, its publisher token hidden until Show is pressed: the page is often
 * on a streamed or shared screen, and the token lets anyone who reads it publish positions.
 * Copy always copies the real command.
 */
export function WatcherCommand({ origin, code, token }: { origin: string; code: string; token: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <div className="pilot-row">
      <code className="pilot-command pilot-break" data-testid="pilot-command">
        {watcherCommand(origin, code, '')}
        {/* The mask stays on one line; the token itself may break anywhere, as the rest. */}
        {shown ? token : <span className="pilot-secret">{HIDDEN_TOKEN}</span>}
      </code>
      <button type="button" className="button button--ghost pilot-copy" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
        {shown ? t('pilot.pair.hideToken') : t('pilot.pair.showToken')}
      </button>
      <CopyButton text={watcherCommand(origin, code, token)} label={t('pilot.pair.copyCommand')} />
    </div>
  );
}

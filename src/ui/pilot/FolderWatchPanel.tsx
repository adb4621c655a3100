import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { positionFromScreenshotFile } from '../../domain/pilot-watcher';
import { publish } from '../../state/pilot';
import { folderFailureDetail, folderFailureOf, folderFailureText, type FolderFailure } from './folderProblem';
import { folderAccessSupported, pickFolder, watchFolder, type FolderWatch } from './folderWatcher';

interface Watching {
  folder: string;
  mode: FolderWatch['mode'];
}

/**
 * What went wrong, kept as what happened (for a failed start: the reason by the browser error's
 * name, folderProblem.ts, and the browser's own English words only for an error with no reason)
 * and said at render: the message follows a language switch made while it shows.
 */
type Problem = { kind: 'lost' } | { kind: 'failed'; failure: FolderFailure; detail: string | null };

/**
 * "Watch my screenshots folder": the visitor picks the game's screenshot folder and each new
 * screenshot's position is sent (File System Access API). Where the browser lacks it, says so
 * and points to the watcher.
 */
export function FolderWatchPanel() {
  const { t } = useTranslation();
  const [supported] = useState(() => folderAccessSupported());
  const [watching, setWatching] = useState<Watching | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [seen, setSeen] = useState({ sent: 0, skipped: 0, last: null as string | null });
  const watch = useRef<FolderWatch | null>(null);

  useEffect(() => () => watch.current?.stop(), []);

  const onFiles = async (names: string[]) => {
    // Several at once (the page was busy): only the newest position matters.
    const withPosition = names.filter((name) => positionFromScreenshotFile(name) !== null);
    const skipped = names.length - withPosition.length;
    const newest = withPosition.at(-1);
    if (newest === undefined) {
      setSeen((s) => ({ ...s, skipped: s.skipped + skipped }));
      return;
    }
    const ok = await publish({ type: 'position', data: positionFromScreenshotFile(newest)! });
    setSeen((s) => ({ sent: s.sent + (ok ? 1 : 0), skipped: s.skipped + skipped, last: ok ? newest : s.last }));
  };

  const start = async () => {
    setProblem(null);
    try {
      const dir = await pickFolder();
      if (!dir) return;
      watch.current?.stop();
      const started = await watchFolder(dir, {
        onFiles,
        onError: () => {
          watch.current = null;
          setWatching(null);
          setProblem({ kind: 'lost' });
        },
      });
      watch.current = started;
      setSeen({ sent: 0, skipped: 0, last: null });
      setWatching({ folder: dir.name, mode: started.mode });
    } catch (error) {
      const failure = folderFailureOf(error);
      // Null: the visitor closed the picker (or its permission prompt) without choosing: nothing to say.
      if (failure !== null) setProblem({ kind: 'failed', failure, detail: failure === 'other' ? folderFailureDetail(error) : null });
    }
  };

  const stop = () => {
    watch.current?.stop();
    watch.current = null;
    setWatching(null);
  };

  return (
    <section className="pilot-card" aria-labelledby="pilot-folder-heading">
      <h2 id="pilot-folder-heading">{t('pilot.folder.heading')}</h2>
      {!supported ? (
        <div className="pilot-unsupported" role="note">
          <p>{t('pilot.folder.unsupported')}</p>
          <p>{t('pilot.folder.useWatcher')}</p>
        </div>
      ) : (
        <>
          <p>{t('pilot.folder.intro')}</p>
          {watching ? (
            <>
              <p role="status">
                {t(watching.mode === 'observer' ? 'pilot.folder.watchingObserver' : 'pilot.folder.watchingPoll', { folder: watching.folder })}
              </p>
              <p className="pilot-note">
                {t('pilot.folder.counts', { sent: seen.sent, skipped: seen.skipped })}
                {seen.last && (
                  <>
                    {' '}
                    <span className="pilot-mono pilot-break">{seen.last}</span>
                  </>
                )}
              </p>
              <button type="button" className="button button--ghost" onClick={stop}>
                {t('pilot.folder.stop')}
              </button>
            </>
          ) : (
            <button type="button" className="button" onClick={() => void start()}>
              {t('pilot.folder.choose')}
            </button>
          )}
        </>
      )}
      {problem && (
        <p className="pilot-problem" role="alert">
          {problem.kind === 'lost' ? t('pilot.folder.lost') : folderFailureText(t, problem.failure)}
          {problem.kind === 'failed' && problem.detail && (
            <>
              {' '}
              {/* The browser's own words (in its language, not the page's), set apart as a detail. */}
              <span className="pilot-note">{t('pilot.folder.detail', { message: problem.detail })}</span>
            </>
          )}
        </p>
      )}
    </section>
  );
}

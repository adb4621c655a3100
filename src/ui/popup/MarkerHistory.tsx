/**
 * The edit form's History section (admins): on demand, `loadHistory(uid)` (state/editor.ts,
 * newest first) and, per entry, who changed the marker, when, the action and version, and a
 * short diff of the fields that changed (markerDiff `historyDiff`: each image added, removed,
 * reordered or changed on a line of its own; categories in the page's language). Plain text only.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Marker } from '../../domain/marker';
import { loadHistory } from '../../state/editor';
import { DiffList } from './DiffList';
import { historyDiff } from './markerDiff';

/** What the section reads of a history entry (docs/EDITOR.md HistoryEntry). */
export interface HistoryRow {
  id: number | string;
  action: 'add' | 'update' | 'delete';
  user: string | null;
  at: string;
  version: number;
  before: Marker | null;
  after: Marker | null;
}

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; entries: HistoryRow[] };

function formatWhen(at: string, lang: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString(lang);
}

export function MarkerHistory({ uid }: { uid: string }) {
  const { t, i18n } = useTranslation();
  const [load, setLoad] = useState<Load>({ state: 'idle' });
  const headingId = useId();

  const actionLabel = (action: HistoryRow['action']) =>
    action === 'add' ? t('markerEdit.actionAdd') : action === 'delete' ? t('markerEdit.actionDelete') : t('markerEdit.actionUpdate');

  const fetchHistory = async () => {
    setLoad({ state: 'loading' });
    try {
      const entries: HistoryRow[] = await loadHistory(uid);
      setLoad({ state: 'ready', entries });
    } catch (error) {
      setLoad({ state: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <section className="marker-edit__history" aria-labelledby={headingId}>
      <div className="marker-edit__row">
        <h3 id={headingId} className="marker-edit__heading">
          {t('markerEdit.history')}
        </h3>
        <button type="button" onClick={() => void fetchHistory()} disabled={load.state === 'loading'}>
          {load.state === 'idle' ? t('markerEdit.historyShow') : t('markerEdit.historyRefresh')}
        </button>
      </div>
      <div role="status">
        {load.state === 'loading' && <p className="marker-edit__hint">{t('markerEdit.historyLoading')}</p>}
        {load.state === 'error' && <p className="marker-edit__error">{t('markerEdit.historyFailed', { message: load.message })}</p>}
        {load.state === 'ready' && load.entries.length === 0 && <p className="marker-edit__none">{t('markerEdit.historyEmpty')}</p>}
      </div>
      {load.state === 'ready' && load.entries.length > 0 && (
        <ol className="marker-edit__history-list">
          {load.entries.map((entry) => {
            const changes = historyDiff(entry.before, entry.after);
            return (
              <li key={entry.id}>
                <p className="marker-edit__history-head">
                  {t('markerEdit.historyEntry', {
                    action: actionLabel(entry.action),
                    user: entry.user || t('markerEdit.historyUnknownUser'),
                    when: formatWhen(entry.at, i18n.language),
                    version: entry.version,
                  })}
                </p>
                {changes.length === 0 ? <p className="marker-edit__none">{t('markerEdit.historyNoFields')}</p> : <DiffList changes={changes} />}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/**
 * The edit form's quest link (spec §5): the linked quest with a Remove button, and a search by
 * the exact quest uid or the exact name in English or Russian, case-insensitive
 * (src/domain/marker-edit.ts `searchQuests`). Matches are listed to pick from; no match says so.
 * Enter in the search box searches (it never submits the form).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { searchQuests } from '../../domain/marker-edit';
import type { Language } from '../../domain/marker';
import { questName, type Quest } from '../../domain/quests';
import { questLabel } from '../../state/items';
import { loadQuests, quests } from '../../state/quests';
import { SearchBox } from './SearchBox';

export interface QuestLinkFieldProps {
  questUid: string | null | undefined;
  lang: Language;
  onChange: (uid: string | null) => void;
  disabled?: boolean;
}

export function QuestLinkField({ questUid, lang, onChange, disabled }: QuestLinkFieldProps) {
  const { t } = useTranslation();
  const { list, status } = useSnapshot(quests);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ query: string; matches: Quest[] } | null>(null);

  useEffect(() => {
    void loadQuests();
  }, []);

  const search = () => {
    const text = query.trim();
    if (!text) {
      setResults(null);
      return;
    }
    setResults({ query: text, matches: searchQuests(list, text, lang) });
  };

  const pick = (quest: Quest) => {
    onChange(quest.uid);
    setResults(null);
    setQuery('');
  };

  return (
    <fieldset className="marker-edit__group" disabled={disabled}>
      <legend>{t('markerEdit.quest')}</legend>
      {questUid ? (
        <div className="marker-edit__row">
          <span className="marker-edit__current">{t('markerEdit.questLinked', { name: questLabel(list, questUid, lang), uid: questUid })}</span>
          <button type="button" onClick={() => onChange(null)}>
            {t('markerEdit.questRemove')}
          </button>
        </div>
      ) : (
        <p className="marker-edit__none">{t('markerEdit.questNone')}</p>
      )}
      <SearchBox
        label={t('markerEdit.questSearch')}
        hint={t('markerEdit.questSearchHint')}
        query={query}
        onQueryChange={setQuery}
        onSearch={search}
        listStatus={status}
        loadingText={t('markerEdit.questListLoading')}
        failedText={t('markerEdit.questListFailed')}
      />
      <div role="status" className="marker-edit__results">
        {results && results.matches.length === 0 && <p className="marker-edit__error">{t('markerEdit.questNoMatch', { query: results.query })}</p>}
        {results && results.matches.length > 0 && (
          <ul aria-label={t('markerEdit.questMatches')}>
            {results.matches.map((quest) => (
              <li key={quest.uid}>
                <button type="button" onClick={() => pick(quest)}>
                  {t('markerEdit.questLink', { name: questName(quest, lang) })}
                </button>{' '}
                <span className="marker-edit__uid">{quest.uid}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </fieldset>
  );
}

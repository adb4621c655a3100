/**
 * Route `/progression/quests`: every quest of the quest cache (name in the current language,
 * trader, Kappa / Lightkeeper flags, wiki link, links to the maps where it has markers),
 * sorted like the map's quest list. `?quest=` (one uid or a comma list) highlights those
 * quests and scrolls the first one into view. The user's progress shows here as on the map:
 * completed quests dimmed and hidden ones marked (not for admins), with the quest actions on
 * each card; the page asks who is signed in (loadSession) and shows the upsell itself.
 * A quest without markers is listed too (its progress can be kept), so the intro says "every
 * quest", not "every quest with markers". A map link adds its quest to what the tab follows on
 * that map and shows where its markers are (`?follow=`: src/ui/panels/useQuestUrl.ts,
 * docs/DECISIONS.md "The Quests page's map link adds its quest").
 *
 * A filter at the top narrows the list by a quest's name or trader in either language
 * (domain/quest-filter.ts), the count above the list saying politely how many match; each card
 * is one Tab stop, ← and → reaching its other buttons and links (QuestCard.tsx, ui/quests/cardStops.ts;
 * docs/DECISIONS.md "Filtering the Quests page"). The filter is kept in the page's history entry,
 * with the card a map link left from: Back shows the list as it was, scrolled to that card and
 * focused on the link (questsPageMemory.ts).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useSnapshot } from 'valtio';
import { filterQuests } from '../../domain/quest-filter';
import { parseQuestParam, sortQuests } from '../../domain/quests';
import { isLanguage, UI_LANGUAGES } from '../../i18n';
import { loadQuestMaps, lookups } from '../../state/items';
import { closeUpsell, layout } from '../../state/layout';
import { loadQuests, quests } from '../../state/quests';
import { loadSession } from '../../state/session';
import { AccountMenu } from '../account/AccountMenu';
import { traderLabel } from '../panels/labels';
import { UpsellPopup } from '../popups/UpsellPopup';
import { LanguageSwitch } from '../topbar/LanguageSwitch';
import { useDocumentTitle } from '../useDocumentTitle';
import { QuestCard, questAnchor } from './QuestCard';
import { readMemory, writeMemory } from './questsPageMemory';
import './quests-page.css';

export function QuestsPage() {
  // One page per history entry: its memory (the filter, the card left from) is the entry's, so an
  // entry reached without leaving the route starts from its own memory too, not the last one's.
  const { key } = useLocation();
  return <QuestsPageEntry key={key} />;
}

function QuestsPageEntry() {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  useDocumentTitle(t('questsPage.title'));
  const [searchParams] = useSearchParams();
  const highlighted = useMemo(() => new Set(parseQuestParam(searchParams.getAll('quest').join(',') || null)), [searchParams]);
  const { status, list } = useSnapshot(quests);
  const { questMaps, questMapsStatus } = useSnapshot(lookups);
  const { upsellOpen } = useSnapshot(layout);

  useEffect(() => {
    void loadSession();
    void loadQuests();
    void loadQuestMaps();
  }, []);

  const sorted = useMemo(() => sortQuests(list, lang), [list, lang]);
  // The history entry's memory as the page came (Back, Forward, a reload): null on a fresh visit.
  const [memory] = useState(readMemory);
  const [filter, setFilter] = useState(() => memory?.filter ?? '');
  const filterId = useId();
  const keysId = useId();
  // A trader by its name in every language, whatever the page's (Прапор on the English page too).
  const shown = useMemo(() => filterQuests(sorted, filter, (trader) => UI_LANGUAGES.map((l) => traderLabel(i18n.getFixedT(l), trader))), [sorted, filter, i18n]);
  const filtering = filter.trim() !== '';

  // Scroll the first highlighted quest into view once the list is there (not when coming back to
  // a card left from: that card is where the user was).
  const scrolledFor = useRef<string | null>(memory?.from !== undefined ? [...highlighted].join(',') : null);
  useEffect(() => {
    const key = [...highlighted].join(',');
    if (status !== 'ready' || !key || scrolledFor.current === key) return;
    const first = sorted.find((q) => highlighted.has(q.uid));
    if (!first) return;
    scrolledFor.current = key;
    document.getElementById(questAnchor(first.uid))?.scrollIntoView?.({ block: 'center' });
  }, [status, sorted, highlighted]);

  // Back to the page after a map link: the scroll offset it had, and the focus on the link left
  // from, once the list and its map links are drawn. Where the offset no longer shows that card
  // (the list changed meanwhile), the card is brought into view instead.
  const restored = useRef(memory?.from === undefined);
  useEffect(() => {
    if (restored.current || status !== 'ready' || questMapsStatus === 'idle' || questMapsStatus === 'loading' || !memory?.from) return;
    restored.current = true;
    const card = document.getElementById(questAnchor(memory.from));
    if (!card) return;
    if (memory.y !== undefined) window.scrollTo?.(0, memory.y);
    const box = card.getBoundingClientRect();
    if (memory.y === undefined || box.bottom < 0 || box.top > window.innerHeight) card.scrollIntoView?.({ block: 'center' });
    const controls = [...card.querySelectorAll<HTMLElement>('[data-card-stop]')];
    const control = controls.find((el) => el.dataset.cardStop === memory.control) ?? controls.find((el) => el.tabIndex === 0);
    control?.focus({ preventScroll: true });
  }, [status, questMapsStatus, memory]);

  const changeFilter = (value: string) => {
    setFilter(value);
    writeMemory({ filter: value });
  };
  // A map link leaves the page: the entry keeps which card and control, and the scroll offset.
  const leaveFrom = useCallback((uid: string, control: string) => writeMemory({ filter, from: uid, control, y: window.scrollY }), [filter]);

  return (
    <div className="page quests-page">
      {/* The site's bar is the banner; the quests are the page's main content (its heading with them). */}
      <header className="page__header-bar">
        <Link to="/" className="brand">
          {t('site.name')}
        </Link>
        <div className="page__header-actions">
          <LanguageSwitch />
          <AccountMenu />
        </div>
      </header>
      <main>
        <div className="page__header">
          <h1>{t('questsPage.heading')}</h1>
          <p className="page__tagline">{t('questsPage.intro')}</p>
        </div>

        {(status === 'idle' || status === 'loading') && (
          <p role="status" className="quests-page__status">
            <span className="spinner" aria-hidden="true" />
            {t('questsPage.loading')}
          </p>
        )}
        {status === 'error' && (
          <div role="alert" className="quests-page__status">
            <p>{t('questsPage.error')}</p>
            <button type="button" className="button" onClick={() => void loadQuests()}>
              {t('questsPage.retry')}
            </button>
          </div>
        )}

        {status === 'ready' && (
          <>
            <div className="quests-page__filter" role="search">
              <label htmlFor={filterId}>{t('questsPage.filterLabel')}</label>
              <input
                id={filterId}
                type="search"
                value={filter}
                placeholder={t('questsPage.filterPlaceholder')}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={keysId}
                onChange={(event) => changeFilter(event.target.value)}
              />
              <p id={keysId} className="quests-page__keys">
                {t('questsPage.keysHint')}
              </p>
            </div>
            {/* A live region from the start (only its changes are read): "5 of 120 quests" as the filter narrows. */}
            <p className="quests-page__count" role="status">
              {!filtering
                ? t('questsPage.count', { count: sorted.length })
                : shown.length === 0
                  ? t('questsPage.noMatch', { text: filter.trim() })
                  : t('questsPage.filtered', { shown: shown.length, total: sorted.length })}
            </p>
            <ul className="quests-page__list" aria-label={t('questsPage.listLabel')}>
              {shown.map((quest) => (
                <QuestCard key={quest.uid} quest={quest} lang={lang} maps={questMaps[quest.uid] ?? []} highlighted={highlighted.has(quest.uid)} onLeave={leaveFrom} />
              ))}
            </ul>
          </>
        )}
      </main>
      {upsellOpen && <UpsellPopup onClose={closeUpsell} />}
    </div>
  );
}

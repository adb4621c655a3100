/**
 * The quest actions (spec §4 "Quest actions (pro)") for one quest — the one component that
 * draws them, in the quest list rows, the marker popup and on the quests page. What shows is
 * the role table's (questProgress, spec §6): a pro user gets Complete / Reopen and Hide / Show;
 * a visitor the same buttons marked Pro, which open the upsell and change nothing (no request);
 * an admin nothing at all; nobody anything while the page is still asking who is signed in.
 * A failed save is shown here, under the buttons that were used. On a quest card the buttons take
 * their place in the card's one Tab stop from the card (cardStops.ts).
 */
import { useContext, useId } from 'react';
import { useSnapshot } from 'valtio';
import { questName, type Quest, type QuestAction } from '../../domain/quests';
import { access, type RoleFlags } from '../../domain/roles';
import { useLanguageT } from '../../i18n/useLanguageT';
import { questMarks, runQuestActionAt } from '../../state/quests';
import { session, type SessionStatus } from '../../state/session';
import { CardStopContext } from './cardStops';
import { QuestProgressError } from './QuestProgressError';
import './quest-actions.css';

/** Where the actions sit: a compact row in the quest list, the marker popup, a quest card. */
export type QuestActionsVariant = 'row' | 'popup' | 'page';

export interface QuestActionsProps {
  quest: Pick<Quest, 'uid' | 'name' | 'ruName'>;
  variant: QuestActionsVariant;
  /** Extra class on the group (the marker popup's `marker-popup__quest-actions`). */
  className?: string;
  /** Told of a pro user's action as it starts (the quest list keeps a row it hides in place). */
  onAction?: (action: QuestAction) => void;
}

/** The two buttons' places, in order: Complete / Reopen, then Hide / Show. */
export const QUEST_ACTION_SLOTS = ['progress', 'visibility'] as const;

interface ActionButton {
  /** Which pair the button is: its place stays the same when Complete turns into Reopen, Hide into Show. */
  slot: (typeof QUEST_ACTION_SLOTS)[number];
  action: QuestAction;
  /** The accessible name: "Complete: <quest name>". */
  label: string;
  /** The tooltip: what the button does. */
  tip: string;
}

/**
 * Whether the actions show to this user (the role table's questProgress), as the upsell (a
 * visitor's), and whether their buttons wait (disabled) while a save runs. Also what a quest card
 * needs to know of them for its Tab stop.
 */
export function questActionsState({ user, status, pendingQuest }: { user: RoleFlags | null; status: SessionStatus; pendingQuest: string | null }): { shown: boolean; upsell: boolean; waiting: boolean } {
  const rule = access(user, 'questProgress');
  const upsell = rule === 'upsell';
  // While the session loads the role is not known: show no one the wrong controls.
  const shown = status !== 'loading' && (rule === 'yes' || upsell);
  // The session saves one action at a time: every quest's buttons wait while one is saved.
  return { shown, upsell, waiting: !upsell && pendingQuest !== null };
}

export function QuestActions({ quest, variant, className, onAction }: QuestActionsProps) {
  // One per quest row: the shared t of useLanguageT, not a useTranslation each.
  const { t, lang } = useLanguageT();
  const { user, status, pendingQuest } = useSnapshot(session);
  const place = useId();
  const noteId = useId();
  // On a quest card: each button's place in the card's one Tab stop (none elsewhere).
  const cardStop = useContext(CardStopContext);

  const { shown, upsell, waiting } = questActionsState({ user, status, pendingQuest });
  if (!shown) return null;
  const name = questName(quest, lang);
  const { done, hidden } = questMarks(user, quest.uid);
  const buttons: ActionButton[] = [
    done
      ? { slot: 'progress', action: 'reopen', label: t('questProgress.reopen', { name }), tip: t('questProgress.reopenTip') }
      : { slot: 'progress', action: 'complete', label: t('questProgress.complete', { name }), tip: t('questProgress.completeTip') },
    hidden
      ? { slot: 'visibility', action: 'show', label: t('questProgress.show', { name }), tip: t('questProgress.showTip') }
      : { slot: 'visibility', action: 'hide', label: t('questProgress.hide', { name }), tip: t('questProgress.hideTip') },
  ];
  const saving = pendingQuest === quest.uid;
  const run = async (button: HTMLButtonElement, action: QuestAction) => {
    if (!upsell) onAction?.(action);
    const hadFocus = document.activeElement === button;
    await runQuestActionAt(place, action, quest.uid);
    // The buttons are disabled while the save runs, and a browser drops the focus of a disabled
    // button: give it back to the same button (now the opposite action), unless it went elsewhere meanwhile.
    const now = document.activeElement;
    if (hadFocus && button.isConnected && (!now || now === document.body)) button.focus();
  };
  const classes = ['quest-actions', `quest-actions--${variant}`, upsell && 'quest-actions--upsell', className].filter(Boolean).join(' ');

  return (
    <>
      <div role="group" aria-label={t('questProgress.group', { name })} aria-busy={saving || undefined} className={classes}>
        {/* Keyed by slot, not action: Hide becomes Show in the same button, which keeps the focus. */}
        {buttons.map(({ slot, action, label, tip }) => (
          <button
            key={slot}
            type="button"
            className={`quest-actions__button quest-actions__button--${action}`}
            aria-label={label}
            aria-describedby={upsell ? noteId : undefined}
            title={upsell ? t('questProgress.proTip', { tip }) : tip}
            disabled={waiting}
            {...cardStop?.(slot)}
            onClick={(event) => void run(event.currentTarget, action)}
          >
            <ActionIcon action={action} />
          </button>
        ))}
        {/* In a list row a dot on each button marks Pro (CSS); elsewhere a badge. */}
        {upsell && variant !== 'row' && (
          <span className="pro-badge quest-actions__pro" aria-hidden="true">
            {t('questProgress.pro')}
          </span>
        )}
        {upsell && (
          <span id={noteId} hidden>
            {t('questProgress.proFeature')}
          </span>
        )}
      </div>
      <QuestProgressError place={place} />
    </>
  );
}

/** Small line icons (24-unit grid): a tick, a circular arrow, an eye, a crossed-out eye. */
function ActionIcon({ action }: { action: QuestAction }) {
  return (
    <svg className="quest-actions__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {action === 'complete' && <path d="M4 12.5l5 5L20 6.5" />}
      {action === 'reopen' && <path d="M4 5v5h5M5.2 15a8 8 0 1 0 .9-8.3L4 10" />}
      {action === 'hide' && <path d="M3 3l18 18M10.6 5.1A10 10 0 0 1 12 5c6 0 10 7 10 7a17 17 0 0 1-3.2 3.9M6.6 6.6C3.9 8.4 2 12 2 12s4 7 10 7a9.6 9.6 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2" />}
      {action === 'show' && (
        <>
          <path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" />
          <circle cx="12" cy="12" r="3" />
        </>
      )}
    </svg>
  );
}

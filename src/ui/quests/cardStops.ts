/**
 * One Tab stop per card of a long list (the Quests page: docs/DECISIONS.md "Filtering the Quests
 * page"). Each card's buttons and links were Tab stops of their own (Complete, Hide, Wiki, each
 * map: 4 or more a quest, 400+ Tabs across the list). Now only one control of each card is
 * (`tabIndex` 0), the rest are -1; ← and → (Home, End) move between a card's controls, and the one
 * last focused stays the card's Tab stop (a roving tabindex, as in a toolbar). Every control is
 * still reachable by keyboard, and by a screen reader's reading keys as before.
 *
 * React renders the attribute: the card knows its controls in order (`usable`: a disabled one is
 * left out, and is never the stop while it cannot take the focus) and gives each its `tabIndex`
 * by key; the quest actions, drawn by QuestActions, take theirs from `CardStopContext` (outside a
 * card, none: each button is a Tab stop). A failure note's buttons shown in a card are not among
 * them: they are Tab stops of their own while the note shows (docs/DECISIONS.md "One Tab stop per
 * quest card, set by React").
 */
import { createContext, useCallback, useState, type FocusEvent, type KeyboardEvent } from 'react';

/** What a card's control renders for its place in the card's Tab order. */
export interface CardStopProps {
  tabIndex: 0 | -1;
  'data-card-stop': string;
}

/** The props of each control of the card around (by key); null outside a card. */
export const CardStopContext = createContext<((key: string) => CardStopProps) | null>(null);

/**
 * The card's Tab stop: the control last focused while it is usable, else its main control (`main`,
 * while usable: the Quests page's first map link, rather than a Pro-only ✓ a visitor cannot use),
 * else the first usable one.
 */
export function cardStop(usable: readonly string[], chosen: string | null, main: string | null = null): string | null {
  if (chosen !== null && usable.includes(chosen)) return chosen;
  if (main !== null && usable.includes(main)) return main;
  return usable[0] ?? null;
}

/** The keys that move between a card's controls, and where each goes from `at` of `count`. */
export function nextIndex(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowRight':
      return Math.min(at + 1, count - 1);
    case 'ArrowLeft':
      return Math.max(at - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * A card's roving Tab stop over its usable controls' keys, in the order they show: `stopProps`
 * for each control (also given to CardStopContext), `cardProps` for the card's element. `main`
 * is the stop until another control is used (cardStop); ← → still go by the order shown.
 */
export function useCardStops(usable: readonly string[], main: string | null = null) {
  const [chosen, setChosen] = useState<string | null>(null);
  const stop = cardStop(usable, chosen, main);
  const stopProps = useCallback((key: string): CardStopProps => ({ tabIndex: key === stop ? 0 : -1, 'data-card-stop': key }), [stop]);

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const key = (event.target as HTMLElement).dataset.cardStop;
    if (key !== undefined) setChosen(key);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    const at = usable.indexOf((event.target as HTMLElement).dataset.cardStop ?? '');
    if (at === -1) return;
    const to = nextIndex(event.key, at, usable.length);
    if (to === null) return;
    event.preventDefault();
    const controls = event.currentTarget.querySelectorAll<HTMLElement>('[data-card-stop]');
    [...controls].find((el) => el.dataset.cardStop === usable[to])?.focus();
  };
  return { stopProps, cardProps: { onFocus, onKeyDown } };
}

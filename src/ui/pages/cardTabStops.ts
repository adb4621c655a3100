/**
 * One Tab stop per card of a long list (the Quests page: docs/DECISIONS.md "Filtering the Quests
 * page"). Each card's buttons and links were Tab stops of their own (Complete, Hide, Wiki, each
 * map: 4 or more a quest, 400+ Tabs across the list). Now only one control of each card is
 * (`tabindex="0"`), the rest are `-1`; ← and → (Home, End) move between a card's controls, and
 * the one last focused stays the card's Tab stop (a roving tabindex, as in a toolbar). Every
 * control is still reachable by keyboard, and by a screen reader's reading keys as before.
 *
 * The controls are not all the page's own (QuestActions draws its buttons and re-renders them by
 * itself as the session loads or a save runs), so the stops are set on the DOM: again whenever
 * the list's elements or a button's `disabled` change. A disabled control is skipped, never the
 * card's stop while it is disabled (it could not take the focus).
 */

const CONTROLS = 'a[href], button';

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
 * Keeps one Tab stop per card (`cardSelector`, matched among `list`'s children) and moves
 * between a card's controls with the arrow keys. Returns the cleanup.
 */
export function cardTabStops(list: HTMLElement, cardSelector: string): () => void {
  // The control each card's Tab stop was last (the first one until another is focused).
  const chosen = new WeakMap<Element, Element>();
  const cardOf = (el: Element | null) => {
    const card = el?.closest(cardSelector);
    return card && card.parentElement === list ? card : null;
  };
  const controls = (card: Element) => [...card.querySelectorAll<HTMLElement>(CONTROLS)].filter((el) => !(el as HTMLButtonElement).disabled);

  const syncCard = (card: Element) => {
    const all = [...card.querySelectorAll<HTMLElement>(CONTROLS)];
    const usable = controls(card);
    const remembered = chosen.get(card);
    const stop = usable.find((el) => el === remembered) ?? usable[0];
    for (const el of all) {
      const tabIndex = el === stop ? 0 : -1;
      if (el.tabIndex !== tabIndex || !el.hasAttribute('tabindex')) el.tabIndex = tabIndex;
    }
  };
  const sync = () => {
    for (const card of list.children) if (card.matches(cardSelector)) syncCard(card);
  };

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as Element;
    const card = cardOf(target);
    if (!card || !target.matches(CONTROLS)) return;
    chosen.set(card, target);
    syncCard(card);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    const card = cardOf(target);
    if (!card || !target.matches(CONTROLS)) return;
    const usable = controls(card);
    const to = nextIndex(event.key, usable.indexOf(target), usable.length);
    if (to === null) return;
    event.preventDefault();
    usable[to].focus();
  };

  sync();
  // Cards come and go with the filter; QuestActions' buttons as the session loads, and a save disables them.
  const observer = new MutationObserver(sync);
  observer.observe(list, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'href'] });
  list.addEventListener('focusin', onFocusIn);
  list.addEventListener('keydown', onKeyDown);
  return () => {
    observer.disconnect();
    list.removeEventListener('focusin', onFocusIn);
    list.removeEventListener('keydown', onKeyDown);
  };
}

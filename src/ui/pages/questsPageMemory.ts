/**
 * What the Quests page keeps in its own history entry (`history.state`, beside the router's keys):
 * the filter typed, and the card and control the user left from by a map link, with the scroll
 * offset then. Back and Forward bring the entry back with it, so the page shows the list as it was
 * and the card left from; a fresh visit is a new entry without it, so it starts empty
 * (docs/DECISIONS.md "The Quests page remembers its filter in the history entry").
 */

/** The page's part of the history entry. */
export interface QuestsPageMemory {
  filter: string;
  /** The uid of the quest whose card was left from, by one of its controls (`control`: its card stop key). */
  from?: string;
  control?: string;
  /** The page's scroll offset when it was left. */
  y?: number;
}

const KEY = 'raidmapQuestsPage';

/** The memory of an entry's state, or null (none, or not one this page wrote). */
export function memoryOf(state: unknown): QuestsPageMemory | null {
  const value = state !== null && typeof state === 'object' ? (state as Record<string, unknown>)[KEY] : undefined;
  if (value === null || typeof value !== 'object') return null;
  const { filter, from, control, y } = value as Record<string, unknown>;
  if (typeof filter !== 'string') return null;
  return {
    filter,
    ...(typeof from === 'string' ? { from } : {}),
    ...(typeof control === 'string' ? { control } : {}),
    ...(typeof y === 'number' && Number.isFinite(y) ? { y } : {}),
  };
}

/** The entry's state with `memory` in it, the router's own keys (usr, key, idx) kept as they are. */
export function withMemory(state: unknown, memory: QuestsPageMemory): Record<string, unknown> {
  const base = state !== null && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  return { ...base, [KEY]: memory };
}

/** The current entry's memory. */
export function readMemory(): QuestsPageMemory | null {
  return memoryOf(window.history.state);
}

/**
 * Writes `memory` into the current entry (replaceState: no new entry, the address unchanged). A
 * browser that refuses (Safari throttles many calls in a row) only loses the memory.
 */
export function writeMemory(memory: QuestsPageMemory): void {
  try {
    window.history.replaceState(withMemory(window.history.state, memory), '');
  } catch (error) {
    console.warn('raidmap: the Quests page could not keep its filter in the history entry', error);
  }
}

/**
 * Finding markers by name (the left panel's "Find a marker"): which labels match typed text,
 * best first. Pure, so the markers worker runs it over its slots and tests run it alone.
 *
 * A label matches when it contains the text, ignoring case and, in Russian, ё against е
 * (players type е). Labels that start with the text come first, then those with a word that
 * starts with it, then the rest; ties go alphabetically, then by slot, so a list is stable.
 */

/** The form of a label or a query that matching compares. */
export function foldSearchText(text: string): string {
  return text.trim().toLocaleLowerCase().replaceAll('ё', 'е');
}

/** How well a folded label matches a folded query: 0 starts with it, 1 a word starts with it, 2 contains it; -1 no match. */
export function matchRank(label: string, query: string): number {
  const at = label.indexOf(query);
  if (at < 0) return -1;
  if (at === 0) return 0;
  return hasWordStart(label, query) ? 1 : 2;
}

function hasWordStart(label: string, query: string): boolean {
  for (let at = label.indexOf(query, 1); at > 0; at = label.indexOf(query, at + 1)) {
    if (/[\s\p{P}]/u.test(label[at - 1])) return true;
  }
  return false;
}

/**
 * The slots (0 … count − 1) whose label matches `text`, best first, at most `limit`.
 * `labelAt` answers a slot's label ('' for an empty slot, which never matches). Blank text
 * matches nothing: the list opens only once something is typed.
 */
export function searchLabels(count: number, labelAt: (slot: number) => string, text: string, limit: number): number[] {
  const query = foldSearchText(text);
  if (query === '' || limit <= 0) return [];
  const found: { slot: number; rank: number; label: string }[] = [];
  for (let slot = 0; slot < count; slot++) {
    const raw = labelAt(slot);
    if (raw === '') continue;
    const label = foldSearchText(raw);
    const rank = matchRank(label, query);
    if (rank >= 0) found.push({ slot, rank, label });
  }
  found.sort((a, b) => a.rank - b.rank || a.label.localeCompare(b.label) || a.slot - b.slot);
  return found.slice(0, limit).map((f) => f.slot);
}

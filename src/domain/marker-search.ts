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

/*
 * Finding markers by name, type and quest (the panel's Find a marker since the by-type search,
 * docs/DECISIONS.md "Find a marker by type, quest and place"). A marker matches by its label as
 * above, or because its subcategory, its quest or its category is one the text names: the page
 * knows those names in its language (and their aliases: "exit" for Extractions), so it hands
 * the worker the ids they name (`namedIds`) and the worker walks its slots once (`searchMarkers`).
 */

/** What made a marker match: its own label, or the subcategory, quest or category it belongs to. */
export type MatchKind = 'name' | 'subCategory' | 'quest' | 'category';

/**
 * Tiers of a match, best first: the label is the text, starts with it, has a word that starts
 * with it, contains it; then the marker's subcategory, quest, category is named by the text.
 */
export const MATCH_TIER = { exact: 0, prefix: 1, word: 2, contains: 3, subCategory: 4, quest: 5, category: 6 } as const;

/** The shortest text that names a subcategory, quest or category (one letter would name most of them). */
export const MIN_NAMING_TEXT = 2;

/** The tier of a folded label's match of a folded query: exact 0, prefix 1, word start 2, contains 3; -1 none. */
export function labelTier(label: string, query: string): number {
  if (label === query) return MATCH_TIER.exact;
  const rank = matchRank(label, query);
  return rank < 0 ? -1 : rank + 1;
}

/**
 * Whether typed text names something called `name` (a category, a subcategory, an alias, a
 * quest): one of the name's words starts with the text ("extr" names "PMC Extraction", "box"
 * names "Weapon box"; "af" does not name "Safe"). Text shorter than MIN_NAMING_TEXT names nothing.
 */
export function textNames(name: string, text: string): boolean {
  const query = foldSearchText(text);
  if (query.length < MIN_NAMING_TEXT) return false;
  const rank = matchRank(foldSearchText(name), query);
  return rank === 0 || rank === 1;
}

/** The ids (of categories, subcategories, quests) one of whose names the text names, in the order given. */
export function namedIds(entries: Iterable<readonly [id: string, names: readonly string[]]>, text: string): string[] {
  const out: string[] = [];
  for (const [id, names] of entries) if (names.some((name) => textNames(name, text))) out.push(id);
  return out;
}

/** The subcategories, quests and categories the typed text names (ids): their markers match too. */
export interface NamedByText {
  subCategories: readonly string[];
  quests: readonly string[];
  categories: readonly string[];
}

export const NAMED_NOTHING: NamedByText = Object.freeze({ subCategories: [], quests: [], categories: [] });

/** What `searchMarkers` reads of a slot; an empty slot has the label ''. */
export interface SlotFacts {
  count: number;
  label(slot: number): string;
  subCategory(slot: number): string;
  category(slot: number): string;
  quest(slot: number): string | null;
}

export interface MarkerMatch {
  slot: number;
  tier: number;
  by: MatchKind;
}

const KIND_OF_TIER: readonly MatchKind[] = ['name', 'name', 'name', 'name', 'subCategory', 'quest', 'category'];

/**
 * The slots that match `text` (by label) or whose subcategory, quest or category is in `named`,
 * best first (MATCH_TIER, then the label alphabetically, then the slot), at most `limit`, and
 * how many match in all. One pass over the slots, keeping only the best `limit` in order (a
 * category named by the text can hold thousands of markers: they are counted, not sorted).
 */
export function searchMarkers(facts: SlotFacts, text: string, named: NamedByText, limit: number): { matches: MarkerMatch[]; total: number } {
  const query = foldSearchText(text);
  if (query === '' || limit <= 0) return { matches: [], total: 0 };
  const subCategories = new Set(named.subCategories);
  const quests = new Set(named.quests);
  const categories = new Set(named.categories);
  const best: { slot: number; tier: number; label: string }[] = [];
  const before = (a: { slot: number; tier: number; label: string }, b: { slot: number; tier: number; label: string }) =>
    a.tier - b.tier || a.label.localeCompare(b.label) || a.slot - b.slot;
  let total = 0;
  for (let slot = 0; slot < facts.count; slot++) {
    const raw = facts.label(slot);
    if (raw === '') continue;
    const label = foldSearchText(raw);
    let tier = labelTier(label, query);
    if (tier < 0) {
      if (subCategories.size > 0 && subCategories.has(facts.subCategory(slot))) tier = MATCH_TIER.subCategory;
      else if (quests.size > 0 && quests.has(facts.quest(slot) ?? '')) tier = MATCH_TIER.quest;
      else if (categories.size > 0 && categories.has(facts.category(slot))) tier = MATCH_TIER.category;
      else continue;
    }
    total++;
    const item = { slot, tier, label };
    if (best.length === limit && before(item, best[limit - 1]) >= 0) continue;
    // Binary search for the first kept item that comes after this one.
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(best[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > limit) best.pop();
  }
  return { matches: best.map(({ slot, tier }) => ({ slot, tier, by: KIND_OF_TIER[tier] })), total };
}

/** A map point (map pixels) and a label: a named extraction, for position hints. */
export interface Landmark {
  label: string;
  x: number;
  y: number;
}

/** The landmark nearest (x, y), with its distance in map pixels; null when there are none. */
export function nearestLandmark(landmarks: readonly Landmark[], x: number, y: number): { label: string; distance: number } | null {
  let found: Landmark | null = null;
  let bestSq = Infinity;
  for (const l of landmarks) {
    const d = (l.x - x) ** 2 + (l.y - y) ** 2;
    if (d < bestSq) {
      bestSq = d;
      found = l;
    }
  }
  return found ? { label: found.label, distance: Math.sqrt(bestSq) } : null;
}

/** Closer than this (metres), a marker is "by" its landmark, not so far from it. */
export const BY_LANDMARK_M = 15;

/**
 * A row's coarse position, as a player tells places apart: "by Gate 3" (within BY_LANDMARK_M),
 * "120 m from Gate 3" (rounded to 10 m), or, on a map with no named extraction, the game's
 * ground coordinates (x, z, whole metres) as a screenshot's file name gives them.
 * `pixelsPerMetre` is the map transform's ratio; `toGame` its map → game conversion.
 */
export type PositionHint =
  | { kind: 'by'; landmark: string }
  | { kind: 'from'; landmark: string; metres: number }
  | { kind: 'coords'; x: number; z: number };

export function positionHint(
  near: { label: string; distance: number } | null,
  pixelsPerMetre: number,
  game: { gameX: number; gameZ: number },
): PositionHint {
  if (near && pixelsPerMetre > 0) {
    const metres = near.distance / pixelsPerMetre;
    if (metres < BY_LANDMARK_M) return { kind: 'by', landmark: near.label };
    return { kind: 'from', landmark: near.label, metres: Math.max(10, Math.round(metres / 10) * 10) };
  }
  const whole = (v: number) => (Object.is(Math.round(v), -0) ? 0 : Math.round(v));
  return { kind: 'coords', x: whole(game.gameX), z: whole(game.gameZ) };
}

/**
 * What a page puts back on top of a marker list it read again (docs/DECISIONS.md "A list read
 * again is never older than the live feed"): a list replaces the page's whole copy, and a live
 * change (or the page's own edit) that reached the page while that list was on its way is not in
 * it, or may not be. Without this the older list overwrote a change already drawn, and nothing
 * brought it back (the operator's probe: a write 37 ms before the list was read).
 *
 * The rule: the page notes the last change it applied to each marker (upsert or removal) and
 * when; once a list read again is loaded, the change of each marker made after the list was
 * asked for (less REPLAY_MARGIN_MS) is applied again on top. The compact list carries no marker
 * versions, so "newer than the list's row" is told by time: the server answers a list read again
 * (a revalidation) with every write it acknowledged or announced before the request
 * (server/http/json-cache.ts `readsFresh`), so only what came after the request can be missing.
 * The margin covers a first read (no revalidation, up to LIST_MAX_STALE_MS behind) and another
 * server process hearing of a write a little later than the one whose feed told this page.
 *
 * Putting a change back is safe even when the list has it, or something newer: while the live
 * feed stays connected a newer change of that marker reaches the page after it (and becomes its
 * latest change here); across a break in the feed, the list is read seconds after the last
 * change heard (the feed's reconnect delay), far outside the margin.
 */
import { LIST_MAX_STALE_MS } from './list-freshness';

/** A marker's latest change on this page: its new copy (unvalidated, as applied), or null: removed. */
export interface HeldChange {
  uid: string;
  marker: unknown | null;
}

/** How long before a list was asked for a change is still put back on top of it. */
export const REPLAY_MARGIN_MS = LIST_MAX_STALE_MS;

/**
 * Changes older than this are forgotten as new ones come: a list asked for longer ago than this
 * and still loading gets none put back (a read that slow is refused or retried anyway).
 */
export const HELD_CHANGE_KEEP_MS = 60_000;

export interface ChangeJournal {
  /** Notes a marker's change applied at `at` (ms, the page's clock): it replaces the marker's earlier one. */
  record(uid: string, marker: unknown | null, at: number): void;
  /** What to put back on a list asked for at `requestedAt`: each marker's latest change made after it less the margin, oldest first. */
  replayFor(requestedAt: number): HeldChange[];
  /** Forgets what a list asked for at `requestedAt` holds for sure (changes made before it less the margin). */
  settled(requestedAt: number): void;
  /** Forgets everything (another map is loaded). */
  clear(): void;
  readonly size: number;
}

export function createChangeJournal(): ChangeJournal {
  /** uid → its latest change; in the order made (a marker's new change moves it to the end). */
  const held = new Map<string, { marker: unknown | null; at: number }>();
  /** Drops the changes made at or before `before` (the oldest come first). */
  const dropUntil = (before: number) => {
    for (const [uid, change] of held) {
      if (change.at > before) break;
      held.delete(uid);
    }
  };
  return {
    record(uid, marker, at) {
      held.delete(uid);
      held.set(uid, { marker, at });
      dropUntil(at - HELD_CHANGE_KEEP_MS);
    },
    replayFor(requestedAt) {
      const out: HeldChange[] = [];
      for (const [uid, change] of held) if (change.at > requestedAt - REPLAY_MARGIN_MS) out.push({ uid, marker: change.marker });
      return out;
    },
    settled(requestedAt) {
      dropUntil(requestedAt - REPLAY_MARGIN_MS);
    },
    clear() {
      held.clear();
    },
    get size() {
      return held.size;
    },
  };
}

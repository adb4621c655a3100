/**
 * `?quest=` ⇄ the followed quests: on mount the parameter (one uid or a comma list; repeated,
 * its values joined) selects
 * those quests (de-duplicated, cut to the limit with the notice); afterwards the parameter
 * follows the selection, so a reload keeps it. Closing the marker popup clears `quest` with
 * `obj` (spec §4, useObjUrl: `dropQuestParam`); the quests stay followed on the page, and the
 * parameter comes back with the next change of the selection. It is compared again whenever the
 * address changes, so a write of `obj` made from an older address cannot leave `quest` behind
 * the selection. Other parameters are left alone.
 *
 * How many quests a link may follow depends on who is signed in (pro: more than 3), so a link
 * longer than the free limit waits until the session has been asked (loadSession) before it
 * is applied: a pro user is not cut to 3 by a page that did not know yet. And when a pro user
 * signs out, the selection is cut to the free limit with the notice. Where the server fails to
 * say who is signed in (asked again first if it had failed already), the link is not cut as a
 * visitor's: its first quests are followed and the others wait for the next answer, still named
 * in the address (ui/quests/questLinkUnchecked.ts).
 *
 * A reload of the tab follows the same quests (docs/DECISIONS.md "A reload keeps the map view"):
 * the followed quests are also kept per tab and per map (state/viewMemory.ts), since a closed
 * popup took `quest` out of the address. An address without `quest` and without `obj` follows the
 * remembered ones (and names them again); a link's `quest` or `obj` wins over them.
 *
 * `?follow=` (the Quests page's map link, docs/DECISIONS.md "The Quests page's map link adds its
 * quest") adds rather than replaces: its quests are followed on top of what the tab follows on
 * that map (the remembered ones, or the address's `quest`); at the free limit the quest followed
 * longest gives its place, named with Undo (questLinkSwap.ts). The map then shows where its
 * markers are (questFraming.ts), and `follow` leaves the address: `quest` names the whole
 * selection, as after any change, so a reload or a shared copy of it follows what is followed.
 */
import { useEffect, useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { subscribeKey } from 'valtio/utils';
import { addressIntent, viewToRestore } from '../../domain/map-view-memory';
import { getMap } from '../../domain/maps';
import { normalizeSelection, parseQuestParam } from '../../domain/quests';
import { enforceQuestLimit, quests, selectQuests } from '../../state/quests';
import { loadSession, session } from '../../state/session';
import { rememberedView, rememberView } from '../../state/viewMemory';
import { followLinkUnchecked, forgetLinkUnchecked, namedQuests, questLinkUnchecked, settleLinkUnchecked } from '../quests/questLinkUnchecked';
import { requestQuestFrame } from './questFraming';
import { followFromLink, forgetLinkSwap } from './questLinkSwap';
import { FOLLOW_PARAM } from './questMapLink';

export const QUEST_PARAM = 'quest';

/** The selection whose parameter a closed popup took away: not written back until the selection changes. */
let droppedSelection: string | null = null;

/** The marker popup closed: `quest` leaves the address (spec §4) until the followed quests change. */
export function dropQuestParam(): void {
  droppedSelection = namedQuests().join(',');
}

export function useQuestUrl(): void {
  const [params, setParams] = useSearchParams();
  const { mapId = '' } = useParams();
  const latest = useRef({ params, setParams, mapId });
  latest.current = { params, setParams, mapId };
  /** Puts the selection into the address; null until the link's quests are applied. */
  const writeSelection = useRef<(() => void) | null>(null);

  useEffect(() => {
    let disposed = false;
    const offs: Array<() => void> = [subscribeKey(session, 'user', enforceQuestLimit)];
    droppedSelection = null;
    const write = () => {
      const { params: current, setParams: set } = latest.current;
      // A link's quests waiting for the account check stay named: a reload or a copy keeps them.
      const value = namedQuests().join(',');
      if (value === droppedSelection) return;
      droppedSelection = null;
      // Named once: a link with the parameter repeated (`?quest=a&quest=b`) is written back as one list.
      const named = current.getAll(QUEST_PARAM);
      if (named.length <= 1 && (named[0] ?? '') === value && !current.has(FOLLOW_PARAM)) return;
      const next = new URLSearchParams(current);
      next.delete(FOLLOW_PARAM);
      if (value) next.set(QUEST_PARAM, value);
      else next.delete(QUEST_PARAM);
      set(next, { replace: true, preventScrollReset: true });
    };
    const address = latest.current.params;
    const intent = addressIntent(address.toString(), '');
    // The map of the page (none outside a map route, nor for the stream overlay): its followed quests are kept for a reload.
    const map = intent.overlay ? undefined : getMap(latest.current.mapId);
    const remember = () => {
      if (map) rememberView(map, { quests: namedQuests() });
    };
    const apply = (linked: string[]) => {
      if (disposed) return;
      // Who is signed in is unknown (the server failed to say, again): not cut as a visitor's link.
      if (session.status === 'error' && !session.user && normalizeSelection(linked, false).limited) followLinkUnchecked(linked);
      else selectQuests(linked);
      added.forEach(followFromLink);
      write();
      if (added.length > 0) requestQuestFrame(added);
      remember();
      writeSelection.current = write;
      const follow = () => {
        write();
        remember();
      };
      offs.push(
        subscribeKey(quests, 'selected', follow),
        subscribeKey(questLinkUnchecked, 'waiting', follow),
        // Any answer from the server (Try again, Settings, a quest action, another tab) settles the waiting quests.
        subscribeKey(session, 'status', (status) => {
          if (status === 'ready') settleLinkUnchecked();
        }),
      );
    };

    const remembered = map ? viewToRestore(rememberedView(map), intent).quests : undefined;
    // Every `quest` of the link (a repeated parameter is one list, as a comma list is).
    const linked = remembered ?? parseQuestParam(address.getAll(QUEST_PARAM).join(',') || null);
    // The Quests page's quests to add on top (none for a shared link).
    const added = intent.overlay ? [] : parseQuestParam(address.getAll(FOLLOW_PARAM).join(',') || null);
    forgetLinkSwap();
    forgetLinkUnchecked();
    // Within the free limit the role changes nothing: apply at once. Beyond it, know the user first
    // (where the server failed to say already, loadSession asks it again).
    if (session.status === 'ready' || !normalizeSelection([...linked, ...added], false).limited) apply(linked);
    else void loadSession().then(() => apply(linked));
    return () => {
      disposed = true;
      writeSelection.current = null;
      forgetLinkSwap();
      forgetLinkUnchecked();
      offs.forEach((off) => off());
    };
  }, []);

  useEffect(() => {
    writeSelection.current?.();
  }, [params]);
}

/**
 * The stream overlay's one piece of UI (docs/DECISIONS.md "The stream overlay says when it has
 * no feed"): a small note in the bottom-left corner while the overlay follows no live feed (no
 * code, a `?connection=` that is no code, a code the server says is gone, with the server's
 * reason when its `end` said one, or a 429 wait), so a streamer who set up the browser source
 * once sees why the player does not show. It appears after NOTE_DELAY_MS of such a state (no
 * flash while the page starts) and goes as soon as the feed connects, so it is never on stream
 * while positions arrive. One exception: a connected feed whose player is on another map than
 * the overlay shows (the overlay goes there by itself, so this says something went wrong) is
 * said too, naming both maps.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import type { MapId } from '../../domain/maps';
import { formatPairingCode } from '../../domain/pilot';
import { pilot, type PilotEndReason, type PilotState } from '../../state/pilot';

/** How long a state with no feed lasts before the note shows. */
export const NOTE_DELAY_MS = 1500;
/** A `?connection=` text longer than this is cut (…): the note stays one or two lines. */
const MAX_TEXT = 32;

export type OverlayProblem =
  | { kind: 'none' }
  | { kind: 'invalid'; text: string }
  | { kind: 'gone'; code: string; reason: PilotEndReason | null }
  | { kind: 'limited'; code: string }
  | { kind: 'elsewhere'; map: MapId; page: MapId };

/**
 * Why the overlay follows no feed now (or shows another map than the player's), or null while
 * it follows one (connected, reconnecting).
 */
export function overlayProblem(
  state: Pick<PilotState, 'code' | 'status' | 'linkProblem'> & Partial<Pick<PilotState, 'endReason' | 'lastMap' | 'pageMap'>>,
): OverlayProblem | null {
  if (state.linkProblem !== null) {
    const text = state.linkProblem.length > MAX_TEXT ? `${state.linkProblem.slice(0, MAX_TEXT)}…` : state.linkProblem;
    return { kind: 'invalid', text };
  }
  if (state.code === null) return { kind: 'none' };
  if (state.status === 'gone') return { kind: 'gone', code: state.code, reason: state.endReason ?? null };
  if (state.status === 'limited') return { kind: 'limited', code: state.code };
  const { lastMap = null, pageMap = null } = state;
  if (state.status === 'connected' && lastMap !== null && pageMap !== null && lastMap !== pageMap) {
    return { kind: 'elsewhere', map: lastMap, page: pageMap };
  }
  return null;
}

/** The note's text per problem (whole keys, as the translation check looks for them). */
const NOTE_KEYS = {
  none: 'overlayNote.none',
  invalid: 'overlayNote.invalid',
  gone: 'overlayNote.gone',
  limited: 'overlayNote.limited',
  elsewhere: 'overlayNote.elsewhere',
} as const satisfies Record<OverlayProblem['kind'], string>;

/** A gone code's words when the server's `end` said why: the map page's live menu's (PilotIndicator). */
const ENDED_KEYS = { deleted: 'pilotFeed.ended', expired: 'pilotFeed.expired' } as const satisfies Record<PilotEndReason, string>;

function noteText(t: TFunction, problem: OverlayProblem): string {
  switch (problem.kind) {
    case 'gone': {
      const code = formatPairingCode(problem.code);
      return problem.reason === null ? t(NOTE_KEYS.gone, { code }) : t('overlayNote.ended', { text: t(ENDED_KEYS[problem.reason], { code }) });
    }
    case 'limited':
      return t(NOTE_KEYS.limited, { code: formatPairingCode(problem.code) });
    case 'elsewhere':
      return t(NOTE_KEYS.elsewhere, { map: t(`maps.${problem.map}`, { defaultValue: problem.map }), page: t(`maps.${problem.page}`, { defaultValue: problem.page }) });
    default:
      return t(NOTE_KEYS[problem.kind], problem);
  }
}

export function OverlayNote() {
  const { t } = useTranslation();
  const snap = useSnapshot(pilot);
  const problem = overlayProblem(snap);
  const key = problem ? JSON.stringify(problem) : null;
  // The problem whose delay is over; a new one (or the same again after a feed) waits anew.
  const [shown, setShown] = useState<{ key: string | null; due: boolean }>({ key, due: false });
  if (shown.key !== key) setShown({ key, due: false });
  useEffect(() => {
    if (key === null) return;
    const timer = setTimeout(() => setShown({ key, due: true }), NOTE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);
  if (!problem || shown.key !== key || !shown.due) return null;
  return (
    <p className="overlay-note" role="note" data-problem={problem.kind}>
      {noteText(t, problem)}
    </p>
  );
}

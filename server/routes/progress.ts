/**
 * Quest progress writes (POST /api/be/user/progress, server/routes/user.ts) as pure rules: the
 * stored lists plus what a request asks give the new lists, or the 400 that refuses it.
 *
 * Two forms. A change `{ done?: { add?, remove? }, hidden?: { add?, remove? } }` is applied to
 * the lists as stored when it is written (users.changeProgress: compare-and-set), so two devices
 * saving at once both keep their change. A whole list `{ questsDone }` or `{ questsHidden }`
 * (older pages) replaces that list, last writer wins.
 *
 * Unknown quest uids: only a NEW one is refused. A uid the list holds already stays (its quest
 * left the quest list since, as a marker's questUid does on update): otherwise no quest could
 * be completed or reopened any more. A change may remove any uid, unknown ones included.
 */
export const MAX_PROGRESS_ENTRIES = 2000;

export interface Progress {
  questsDone: readonly string[];
  questsHidden: readonly string[];
}

export interface ListChange {
  add?: readonly string[];
  remove?: readonly string[];
}

export type ProgressRequest =
  | { questsDone: readonly string[]; questsHidden?: never; done?: never; hidden?: never }
  | { questsHidden: readonly string[]; questsDone?: never; done?: never; hidden?: never }
  | { done?: ListChange; hidden?: ListChange; questsDone?: never; questsHidden?: never };

type Field = 'questsDone' | 'questsHidden';

/** `"a", "b" and 3 more`: the first five uids of a message. */
function shownUids(uids: readonly string[]): string {
  const shown = uids.slice(0, 5).map((u) => `"${u}"`).join(', ');
  return `${shown}${uids.length > 5 ? ` and ${uids.length - 5} more` : ''}`;
}

/** The new list of one field, or the 400 message. `name`: the request's field, for the message. */
function nextList(stored: readonly string[], wanted: { replace: readonly string[] } | ListChange, known: (uid: string) => boolean, name: string): string[] | string {
  const held = new Set(stored);
  const incoming = 'replace' in wanted ? wanted.replace : (wanted.add ?? []);
  const unknown = [...new Set(incoming.filter((uid) => !known(uid) && !held.has(uid)))];
  if (unknown.length > 0) return `${name}: unknown quest uid(s): ${shownUids(unknown)}`;
  let next: string[];
  if ('replace' in wanted) {
    next = [...new Set(wanted.replace)];
  } else {
    const remove = new Set(wanted.remove ?? []);
    const both = [...new Set((wanted.add ?? []).filter((uid) => remove.has(uid)))];
    if (both.length > 0) return `${name}: a quest uid is both added and removed: ${shownUids(both)}`;
    next = [...new Set([...stored.filter((uid) => !remove.has(uid)), ...(wanted.add ?? [])])];
  }
  if (next.length > MAX_PROGRESS_ENTRIES) return `${name}: may hold at most ${MAX_PROGRESS_ENTRIES} quest uids`;
  return next;
}

/** `stored` after `request`, or the reason (a 400 message) it is refused; nothing else changes. */
export function nextProgress(stored: Progress, request: ProgressRequest, known: (uid: string) => boolean): { progress: Progress } | { error: string } {
  const steps: [Field, { replace: readonly string[] } | ListChange, string][] = [];
  if (request.questsDone !== undefined) steps.push(['questsDone', { replace: request.questsDone }, 'questsDone']);
  if (request.questsHidden !== undefined) steps.push(['questsHidden', { replace: request.questsHidden }, 'questsHidden']);
  if (request.done !== undefined) steps.push(['questsDone', request.done, 'done']);
  if (request.hidden !== undefined) steps.push(['questsHidden', request.hidden, 'hidden']);
  const progress = { questsDone: [...stored.questsDone], questsHidden: [...stored.questsHidden] };
  for (const [field, wanted, name] of steps) {
    const next = nextList(stored[field], wanted, known, name);
    if (typeof next === 'string') return { error: next };
    progress[field] = next;
  }
  return { progress };
}

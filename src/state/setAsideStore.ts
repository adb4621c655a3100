/**
 * An admin's unsaved form work survives a reload, a closed tab or a phone that drops the page
 * (docs/EDITOR.md "Work set aside"): when the page is hidden, the open edit with typed changes
 * (else the edit set aside) is written to local storage under its map (`map:setAside:{mapId}`);
 * the next admin page of that map takes it back as the edit set aside, which the dock offers
 * ("Back to them"). A save is based on the version the work began from, so a change made
 * meanwhile by another admin shows as a conflict, as ever.
 *
 * Only the page that wrote the stored work removes it (when it has none left at its next hide):
 * a second tab of the same map, hidden with nothing to keep, does not drop the first one's.
 */
import { markerSchema, type Marker } from '../domain/marker';
import { sameMarker } from '../domain/marker-compare';
import { popup, type SetAsideEdit } from './popup';
import { readStored, writeStored } from './storage';

export const setAsideStorageKey = (mapId: string) => `map:setAside:${mapId}`;

interface StoredWork {
  /** The page that wrote it. */
  page: string;
  edit: SetAsideEdit;
}

const copy = (m: Marker): Marker => JSON.parse(JSON.stringify(m)) as Marker;

/**
 * The work on `mapId`'s markers a page hidden now would lose: the open edit with typed changes,
 * else the one set aside (which may be of a map the page showed before: not this map's).
 */
export function workToKeep(state: Pick<typeof popup, 'mode' | 'snapshot' | 'draft' | 'setAside'>, mapId: string): SetAsideEdit | null {
  const { mode, snapshot, draft } = state;
  if (mode === 'edit' && snapshot && draft && snapshot.map === mapId && !sameMarker(snapshot, draft)) return { uid: snapshot.uid, snapshot: copy(snapshot), draft: copy(draft) };
  const aside = state.setAside;
  return aside && aside.snapshot.map === mapId ? { uid: aside.uid, snapshot: copy(aside.snapshot), draft: copy(aside.draft) } : null;
}

/** Stored work, or null when absent, unreadable, or not two markers of one uid on `mapId` (a bad entry is never restored). */
export function parseStoredWork(text: string | null, mapId: string): StoredWork | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { page, edit } = value as { page?: unknown; edit?: { uid?: unknown; snapshot?: unknown; draft?: unknown } };
  if (typeof page !== 'string' || !edit || typeof edit.uid !== 'string') return null;
  const snapshot = markerSchema.safeParse(edit.snapshot);
  const draft = markerSchema.safeParse(edit.draft);
  if (!snapshot.success || !draft.success) return null;
  const [s, d] = [edit.snapshot as Marker, edit.draft as Marker];
  if (s.uid !== edit.uid || d.uid !== edit.uid || s.map !== mapId || d.map !== mapId) return null;
  return { page, edit: { uid: edit.uid, snapshot: s, draft: d } };
}

/**
 * Keeps this page's work for `mapId` across reloads: takes back work stored by an earlier page
 * (once: the entry is then this page's) and stores the work at each hide and at the stop
 * (leaving the map). Returns the stop.
 */
export function keepSetAsideAcrossReloads(mapId: string, win: EventTarget = window, doc: EventTarget & Pick<Document, 'visibilityState'> = document): () => void {
  const key = setAsideStorageKey(mapId);
  const page = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const stored = parseStoredWork(readStored(key), mapId);
  if (stored && !popup.setAside) {
    popup.setAside = stored.edit;
    writeStored(key, JSON.stringify({ page, edit: stored.edit }));
  } else if (readStored(key) !== null && !stored) writeStored(key, null);

  const save = () => {
    const work = workToKeep(popup, mapId);
    if (work) writeStored(key, JSON.stringify({ page, edit: work }));
    else if (parseStoredWork(readStored(key), mapId)?.page === page) writeStored(key, null);
  };
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') save();
  };
  win.addEventListener('pagehide', save);
  doc.addEventListener('visibilitychange', onVisibility);
  return () => {
    win.removeEventListener('pagehide', save);
    doc.removeEventListener('visibilitychange', onVisibility);
    // Leaving the map within the page: what is left now is what a later page gets.
    save();
  };
}

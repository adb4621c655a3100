/**
 * An admin's unsaved form work survives a reload, a closed tab or a phone that drops the page
 * (docs/EDITOR.md "Work set aside"): when the page is hidden, the open edit with typed changes
 * (else the edit set aside) is written to local storage under its map (`map:setAside:{mapId}`);
 * the next admin page of that map takes it back as the edit set aside, which the dock offers
 * ("Back to them"). A save is based on the version the work began from, so a change made
 * meanwhile by another admin shows as a conflict, as ever.
 *
 * Markers the page placed or copied that the server never confirmed (placed while it was down;
 * the editor commands' `unsavedAdds`) are kept the same way, under `map:unsavedAdds:{mapId}`,
 * one slot per page that wrote them: the next page takes them all and offers them
 * (`keptAdds`, the dock's UnsavedMarkersNotice); "Back to them" shows them as unsaved and sends
 * their adds through the commands (`restoreAdds`: a uid the loaded list holds is not added
 * again), "Discard" drops them.
 *
 * Only the page that wrote the stored work removes it (when it has none left at its next hide):
 * a second tab of the same map, hidden with nothing to keep, does not drop the first one's.
 */
import { proxy } from 'valtio';
import { markerSchema, type Marker } from '../domain/marker';
import { sameMarker } from '../domain/marker-compare';
import { boundEditor } from './editor';
import { popup, type SetAsideEdit } from './popup';
import { readStored, writeStored } from './storage';

export const setAsideStorageKey = (mapId: string) => `map:setAside:${mapId}`;
export const unsavedAddsStorageKey = (mapId: string) => `map:unsavedAdds:${mapId}`;

export interface KeptAddsState {
  /** The map they belong to (null: no map page keeps any). */
  mapId: string | null;
  /** Markers an earlier page of the map placed and the server never confirmed, offered back. */
  markers: Marker[];
  /** "Back to them" is showing them. */
  restoring: boolean;
}

/** What the dock offers back after a reload (UnsavedMarkersNotice). */
export const keptAdds = proxy<KeptAddsState>({ mapId: null, markers: [], restoring: false });

/** Stored unsaved markers: per page that wrote them, its markers. */
export type StoredAdds = Record<string, Marker[]>;

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

/** Stored unsaved markers of `mapId` by page; a bad entry or marker (not one of `mapId`'s) is left out. */
export function parseStoredAdds(text: string | null, mapId: string): StoredAdds {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const slots: StoredAdds = {};
  for (const [page, list] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    const markers = list.filter((m): m is Marker => markerSchema.safeParse(m).success && (m as Marker).map === mapId);
    if (markers.length > 0) slots[page] = markers.map(copy);
  }
  return slots;
}

/** One marker per uid, the later list's copy winning (the page's own copy is newer than an offered one). */
export function mergeAdds(...lists: ReadonlyArray<readonly Marker[]>): Marker[] {
  const byUid = new Map<string, Marker>();
  for (const list of lists) for (const marker of list) byUid.set(marker.uid, copy(marker));
  return [...byUid.values()];
}

/** The unsaved markers of `mapId` a page hidden now would lose: those offered back and not handled, and the editor's. */
export function addsToKeep(mapId: string, offered: Pick<KeptAddsState, 'mapId' | 'markers'> = keptAdds): Marker[] {
  const stillOffered = offered.mapId === mapId ? offered.markers : [];
  const unsaved = (boundEditor()?.unsavedAdds() ?? []).filter((m) => m.map === mapId);
  return mergeAdds(stillOffered, unsaved);
}

/** Writes this page's slot (none: removes it), leaving other pages' slots as they are. */
function storeAdds(key: string, mapId: string, page: string, markers: Marker[]): void {
  const slots = parseStoredAdds(readStored(key), mapId);
  if (markers.length > 0) slots[page] = markers;
  else if (slots[page]) delete slots[page];
  else return;
  writeStored(key, Object.keys(slots).length > 0 ? JSON.stringify(slots) : null);
}

/** Takes every page's stored markers as offered back; the entry is then this page's alone. */
function takeStoredAdds(key: string, mapId: string, page: string): void {
  const taken = mergeAdds(...Object.values(parseStoredAdds(readStored(key), mapId)));
  keptAdds.mapId = mapId;
  keptAdds.markers = taken;
  keptAdds.restoring = false;
  writeStored(key, taken.length > 0 ? JSON.stringify({ [page]: taken }) : null);
}

/** The save of the page keeping work now (restore and discard store their outcome at once). */
let keepNow: (() => void) | null = null;

/**
 * "Back to them": the offered markers go back on the map as unsaved and their adds are sent
 * (the editor commands' `restoreAdds`; nothing is added twice). Those it could not check stay offered.
 */
export async function restoreKeptAdds(): Promise<void> {
  const commands = boundEditor();
  if (!commands || keptAdds.restoring || keptAdds.markers.length === 0) return;
  keptAdds.restoring = true;
  try {
    const { kept } = await commands.restoreAdds(keptAdds.markers.map(copy));
    keptAdds.markers = kept;
  } finally {
    keptAdds.restoring = false;
    keepNow?.();
  }
}

/** "Discard": the offered markers are dropped (the admin chose to). */
export function discardKeptAdds(): void {
  keptAdds.markers = [];
  keepNow?.();
}

/**
 * Keeps this page's work for `mapId` across reloads: takes back work and unsaved markers stored
 * by an earlier page (once: the entries are then this page's) and stores them at each hide and
 * at the stop (leaving the map). Call it before the editor's commands are bound, and stop it
 * before they are unbound (the unsaved markers are read from them). Returns the stop.
 */
export function keepSetAsideAcrossReloads(mapId: string, win: EventTarget = window, doc: EventTarget & Pick<Document, 'visibilityState'> = document): () => void {
  const key = setAsideStorageKey(mapId);
  const page = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const stored = parseStoredWork(readStored(key), mapId);
  if (stored && !popup.setAside) {
    popup.setAside = stored.edit;
    writeStored(key, JSON.stringify({ page, edit: stored.edit }));
  } else if (readStored(key) !== null && !stored) writeStored(key, null);
  const addsKey = unsavedAddsStorageKey(mapId);
  takeStoredAdds(addsKey, mapId, page);

  const save = () => {
    const work = workToKeep(popup, mapId);
    if (work) writeStored(key, JSON.stringify({ page, edit: work }));
    else if (parseStoredWork(readStored(key), mapId)?.page === page) writeStored(key, null);
    storeAdds(addsKey, mapId, page, addsToKeep(mapId));
  };
  keepNow = save;
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
    if (keepNow === save) keepNow = null;
    if (keptAdds.mapId === mapId) Object.assign(keptAdds, { mapId: null, markers: [], restoring: false });
  };
}

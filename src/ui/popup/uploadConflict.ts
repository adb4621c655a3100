/**
 * An image upload the server refused because another admin changed the marker's images
 * meanwhile (409 with the stored marker: nothing uploaded, nothing replaced). The edit form
 * takes their version as "Keep mine" of another admin's change does (state/popup.ts
 * `keepEditOnTheirs`): the admin's typed changes go onto their marker, which the form is based
 * on from now; and the images are theirs, so the form shows what they did to them and a retry
 * names images the server has (else it meets the same 409). What the admin had changed in the
 * images themselves (order, names) gives way: the images are what the conflict was about.
 */
import type { Marker } from '../../domain/marker';
import { keepEditOnTheirs, patchDraft, popup } from '../../state/popup';
import { historyDiff, type HistoryChange } from './markerDiff';

/** What the form took: their changes (the form's marker before → theirs), and whether the admin's own image edits gave way. */
export interface TakenImages {
  changes: HistoryChange[];
  droppedMine: boolean;
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * The open edit form of `uid` goes on from `theirs` (the 409's stored marker) with their images.
 * Null, nothing changed: no form on that marker, or one based on `theirs` or newer already.
 */
export function takeTheirImages(uid: string, theirs: Marker): TakenImages | null {
  const { mode, snapshot, draft } = popup;
  if (mode !== 'edit' || !snapshot || !draft || snapshot.uid !== uid || theirs.uid !== uid) return null;
  if (snapshot.version !== undefined && theirs.version !== undefined && theirs.version <= snapshot.version) return null;
  const before = JSON.parse(json(snapshot)) as Marker;
  const droppedMine = json(draft.imgs) !== json(snapshot.imgs) && json(draft.imgs) !== json(theirs.imgs);
  keepEditOnTheirs(uid, theirs);
  patchDraft({ imgs: JSON.parse(json(theirs.imgs)) as Marker['imgs'] });
  return { changes: historyDiff(before, theirs), droppedMine };
}

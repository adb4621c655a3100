import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelEdit, closeEditRemoved, discardSetAside, finishEdit, followPageCopy, followUntouched, leaveEdit, loadPopupSize, resumingEdit, settleSetAside, resumeSetAside, markerChanged, patchDraft, popup, rebaseEdit, setDraft, startEdit, POPUP_STORAGE_KEY, requestFocus, resetPopup, setEnlarged, showPopupFor, stepImage, takeFocus, toggleEnlarged } from './popup';
import type { Marker } from '../domain/marker';
import { memoryStorage, setStorageBackend } from './storage';

const safe: Marker = {
  uid: 'a',
  map: 'factory',
  category: 'Loot',
  subCategory: 'Safe',
  level: 1,
  geometry: { x: 1, y: 2 },
  name: 'Safe',
  desc: '',
  imgs: [{ img: '/a.webp', name: 'Door', desc: '' }],
  name_l10n: {},
  desc_l10n: {},
  itemsUid: [],
  version: 3,
};

let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  storage = memoryStorage();
  setStorageBackend(storage);
  resetPopup();
  loadPopupSize();
});
afterEach(() => setStorageBackend(null));

describe('popup state', () => {
  it('remembers the enlarged size in localStorage map_popup = xlsize', () => {
    expect(popup.enlarged).toBe(false);
    toggleEnlarged();
    expect(popup.enlarged).toBe(true);
    expect(storage.getItem(POPUP_STORAGE_KEY)).toBe('xlsize');
    setEnlarged(false);
    expect(storage.getItem(POPUP_STORAGE_KEY)).toBeNull();
    storage.setItem(POPUP_STORAGE_KEY, 'xlsize');
    loadPopupSize();
    expect(popup.enlarged).toBe(true);
    storage.setItem(POPUP_STORAGE_KEY, 'something else');
    loadPopupSize();
    expect(popup.enlarged).toBe(false);
  });

  it('pages images clamped, and a different marker starts at image 0', () => {
    showPopupFor('a');
    stepImage(1, 3);
    stepImage(1, 3);
    stepImage(1, 3);
    expect(popup.imageIndex).toBe(2);
    stepImage(-1, 3);
    expect(popup.imageIndex).toBe(1);
    showPopupFor('a');
    expect(popup.imageIndex).toBe(1);
    showPopupFor('b');
    expect(popup).toMatchObject({ uid: 'b', imageIndex: 0 });
    stepImage(-1, 3);
    expect(popup.imageIndex).toBe(0);
    stepImage(1, 0);
    expect(popup.imageIndex).toBe(0);
  });

  it('hands a focus request over once and ignores non-numbers', () => {
    requestFocus(Number.NaN, 3);
    expect(takeFocus()).toBeNull();
    requestFocus(120, 340);
    expect(takeFocus()).toEqual({ x: 120, y: 340 });
    expect(takeFocus()).toBeNull();
  });

  it('moves the revision for a change to the open marker or to any, not to another', () => {
    const start = popup.revision;
    markerChanged('x');
    expect(popup.revision).toBe(start + 1);
    showPopupFor('a');
    markerChanged('b');
    expect(popup.revision).toBe(start + 1);
    markerChanged('a');
    markerChanged();
    expect(popup.revision).toBe(start + 3);
  });

  it('edit mode: a snapshot and a draft that share nothing; cancel drops the draft', () => {
    showPopupFor('a');
    expect(popup.mode).toBe('view');
    startEdit(safe);
    expect(popup).toMatchObject({ mode: 'edit', uid: 'a' });
    expect(popup.snapshot).toEqual(safe);
    patchDraft({ name: 'Changed' });
    popup.draft!.imgs[0].name = 'Window';
    expect(popup.snapshot).toEqual(safe);
    expect(safe.imgs[0].name).toBe('Door');
    // Entering again for the same marker keeps the draft.
    startEdit(safe);
    expect(popup.draft?.name).toBe('Changed');
    cancelEdit();
    expect(popup).toMatchObject({ mode: 'view', snapshot: null, draft: null });
    // Outside edit mode the draft cannot be changed.
    patchDraft({ name: 'x' });
    setDraft({ ...safe, name: 'y' });
    expect(popup.draft).toBeNull();
  });

  it('a different marker, a closed popup or a finished save go back to view mode', () => {
    showPopupFor('a');
    stepImage(1, 3);
    startEdit(safe);
    showPopupFor('b');
    expect(popup).toMatchObject({ uid: 'b', imageIndex: 0, mode: 'view', draft: null });
    showPopupFor('a');
    startEdit(safe);
    showPopupFor(null);
    expect(popup.mode).toBe('view');
    showPopupFor('a');
    startEdit(safe);
    finishEdit();
    expect(popup.mode).toBe('view');
  });

  it('a rebase moves the version the edit is based on and keeps the typed work', () => {
    showPopupFor('a');
    startEdit(safe);
    patchDraft({ name: 'Typed' });
    setDraft({ ...popup.draft!, desc: 'More' });
    rebaseEdit({ ...safe, version: 4, imgs: [{ img: '/new.webp', name: 'Door', desc: '' }] }, (draft) => {
      draft.imgs[0].img = '/new.webp';
    });
    expect(popup.snapshot?.version).toBe(4);
    expect(popup.draft).toMatchObject({ name: 'Typed', desc: 'More', version: 4, imgs: [{ img: '/new.webp' }] });
    // Another marker's copy is not a rebase of this edit.
    rebaseEdit({ ...safe, uid: 'b', version: 9 });
    expect(popup.draft?.version).toBe(4);
  });
});

describe('an edit left with typed changes is set aside, not lost', () => {
  const other: Marker = { ...safe, uid: 'b', name: 'Exit' };
  /** The popup follows the selection the way useOpenMarker does. */
  const select = (uid: string) => showPopupFor(uid);
  /** The safe's form opened and `patch` typed into it. */
  const typeIntoSafe = (patch: Partial<Marker>) => {
    showPopupFor('a');
    startEdit(safe);
    patchDraft(patch);
  };

  it('leaveEdit (Escape in a field) sets typed changes aside and ends edit mode; nothing typed: nothing kept', () => {
    typeIntoSafe({ name: 'Big safe' });
    leaveEdit();
    expect(popup).toMatchObject({ uid: 'a', mode: 'view', draft: null, setAside: { uid: 'a', draft: { name: 'Big safe' } } });
    discardSetAside();
    typeIntoSafe({});
    leaveEdit();
    expect(popup).toMatchObject({ mode: 'view', setAside: null });
  });

  it('closeEditRemoved (an undo took the marker away): its form closes, typed work set aside for "Back to them"; another form stays', () => {
    typeIntoSafe({ name: 'Big safe' });
    const revision = popup.revision;
    closeEditRemoved('b');
    expect(popup).toMatchObject({ mode: 'edit', setAside: null, revision });
    closeEditRemoved('a');
    expect(popup).toMatchObject({ uid: 'a', mode: 'view', draft: null, snapshot: null, setAside: { uid: 'a', draft: { name: 'Big safe' } } });
    // The popup reads its marker again (and closes: it is gone).
    expect(popup.revision).toBe(revision + 1);
    // The redo put it back: "Back to them" opens the form on it with the typed name.
    resumeSetAside(select);
    expect(popup).toMatchObject({ mode: 'edit', draft: { uid: 'a', name: 'Big safe' }, setAside: null });
    // Nothing typed: the form closes, nothing is kept.
    cancelEdit();
    startEdit(safe);
    closeEditRemoved('a');
    expect(popup).toMatchObject({ mode: 'view', setAside: null });
  });

  it('settleSetAside drops set-aside work that a save holds (typed spaces and versions aside), keeps anything more', () => {
    typeIntoSafe({ name: 'Big safe  ' });
    showPopupFor('b');
    settleSetAside({ ...safe, name: 'Other', version: 4 });
    expect(popup.setAside).not.toBeNull();
    settleSetAside({ ...safe, uid: 'b', name: 'Big safe', version: 4 });
    expect(popup.setAside).not.toBeNull();
    settleSetAside({ ...safe, name: 'Big safe', version: 4 });
    expect(popup.setAside).toBeNull();
  });

  it('resumingEdit answers the set-aside work Back to them is opening, until its popup shows', () => {
    typeIntoSafe({ name: 'Big safe' });
    showPopupFor('b');
    resumeSetAside(() => {});
    expect(resumingEdit('a')).toMatchObject({ uid: 'a', draft: { name: 'Big safe' } });
    expect(resumingEdit('b')).toBeNull();
    showPopupFor('a');
    expect(resumingEdit('a')).toBeNull();
  });

  it('opening another marker sets the typed edit aside; Back to them opens it again as it was', () => {
    typeIntoSafe({ name: 'Big safe' });
    showPopupFor('b');
    expect(popup.mode).toBe('view');
    expect(popup.setAside).toMatchObject({ uid: 'a', snapshot: { name: 'Safe', version: 3 }, draft: { name: 'Big safe' } });
    resumeSetAside(select);
    expect(popup.uid).toBe('a');
    expect(popup.mode).toBe('edit');
    expect(popup.snapshot).toMatchObject({ name: 'Safe', version: 3 });
    expect(popup.draft).toMatchObject({ name: 'Big safe' });
    expect(popup.setAside).toBeNull();
  });

  it('closing the popup sets it aside too; Discard drops it', () => {
    typeIntoSafe({ desc: 'Behind the desk' });
    showPopupFor(null);
    expect(popup.setAside?.draft.desc).toBe('Behind the desk');
    discardSetAside();
    expect(popup.setAside).toBeNull();
  });

  it('an edit with nothing typed, a Cancel and a Save set nothing aside', () => {
    showPopupFor('a');
    startEdit(safe);
    showPopupFor('b');
    expect(popup.setAside).toBeNull();
    startEdit(other);
    patchDraft({ name: 'Gate' });
    cancelEdit();
    showPopupFor('a');
    expect(popup.setAside).toBeNull();
    startEdit(safe);
    patchDraft({ name: 'Saved' });
    finishEdit();
    showPopupFor('b');
    expect(popup.setAside).toBeNull();
  });

  it('Back to them on the marker open in view mode resumes it at once; the edit open then is set aside in turn', () => {
    typeIntoSafe({ name: 'Big safe' });
    showPopupFor('b');
    showPopupFor('a');
    expect(popup.mode).toBe('view');
    resumeSetAside(() => {
      throw new Error('already open: no selection change');
    });
    expect(popup.draft).toMatchObject({ name: 'Big safe' });
    expect(popup.setAside).toBeNull();
  });

  it('a map left (resetPopup) forgets it', () => {
    typeIntoSafe({ name: 'Big safe' });
    showPopupFor('b');
    resetPopup();
    expect(popup.setAside).toBeNull();
  });
});

describe('an open edit form follows this page’s own change of its marker (followPageCopy)', () => {
  it('untouched fields take the page copy, typed ones stay, and the page copy becomes the snapshot', () => {
    const saved = { ...safe, name_l10n: { en: 'first save' }, level: 3, version: 4 };
    startEdit(saved);
    patchDraft({ name_l10n: { en: 'first save', ru: 'typed ru' }, desc: 'typed desc' });
    const undone = { ...safe, name_l10n: {}, level: 1, version: 5 };
    followPageCopy(undone);
    expect(popup.snapshot).toEqual(undone);
    expect(popup.draft).toEqual({ ...undone, name_l10n: { ru: 'typed ru' }, desc: 'typed desc' });
  });

  it('leaves the form alone for another marker, outside edit mode, or where nothing moved', () => {
    startEdit(safe);
    patchDraft({ name: 'Typed' });
    followPageCopy({ ...safe, uid: 'b', name: 'Other' });
    followPageCopy({ ...safe, version: 9 });
    expect(popup.snapshot).toEqual(safe);
    expect(popup.draft).toEqual({ ...safe, name: 'Typed' });
    cancelEdit();
    followPageCopy({ ...safe, name: 'Moved on' });
    expect(popup.draft).toBeNull();
  });
});

describe('an edit form with nothing typed follows another admin’s change (followUntouched)', () => {
  const plainCopy = (m: Marker) => JSON.parse(JSON.stringify(m)) as Marker;

  it('takes their version whole: fields and the version a save is based on', () => {
    startEdit(safe);
    expect(followUntouched({ ...safe, desc: 'Theirs', version: 4 })).toBe(true);
    expect(plainCopy(popup.snapshot!)).toEqual({ ...safe, desc: 'Theirs', version: 4 });
    expect(plainCopy(popup.draft!)).toEqual({ ...safe, desc: 'Theirs', version: 4 });
    // Only a newer version: the form's fields are unchanged, no note.
    expect(followUntouched({ ...safe, desc: 'Theirs', version: 5 })).toBe(false);
    expect(popup.draft!.version).toBe(5);
  });

  it('leaves a form with typed changes (a conflict asks there), an older version and another marker alone', () => {
    startEdit(safe);
    expect(followUntouched({ ...safe, desc: 'Older', version: 2 })).toBe(false);
    expect(followUntouched({ ...safe, uid: 'b', desc: 'Other', version: 9 })).toBe(false);
    patchDraft({ name: 'Typed' });
    expect(followUntouched({ ...safe, desc: 'Theirs', version: 4 })).toBe(false);
    expect(popup.draft).toMatchObject({ name: 'Typed', desc: '', version: 3 });
    cancelEdit();
    expect(followUntouched({ ...safe, desc: 'Theirs', version: 4 })).toBe(false);
  });

  it('an uploaded image is no typed change: the form follows their version, and the upload’s late answer does not take it back', () => {
    startEdit(safe);
    const uploaded = { ...safe, imgs: [...safe.imgs, { img: '/b.webp', name: '', desc: '' }], version: 4 };
    rebaseEdit(uploaded, (draft) => draft.imgs.push({ img: '/b.webp', name: '', desc: '' }));
    expect(followUntouched({ ...uploaded, desc: 'Theirs', version: 5 })).toBe(true);
    expect(popup.draft).toMatchObject({ desc: 'Theirs', version: 5 });
    // Another upload's answer older than what the form shows: the image is taken, the version is not.
    rebaseEdit({ ...uploaded, imgs: [...uploaded.imgs, { img: '/c.webp', name: '', desc: '' }], version: 4 }, (draft) => draft.imgs.push({ img: '/c.webp', name: '', desc: '' }));
    expect(popup.snapshot).toMatchObject({ desc: 'Theirs', version: 5 });
    expect(popup.draft).toMatchObject({ version: 5, imgs: [{ img: '/a.webp' }, { img: '/b.webp' }, { img: '/c.webp' }] });
  });
});

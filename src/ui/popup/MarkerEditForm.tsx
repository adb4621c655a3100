/**
 * The marker popup's edit mode (admins only; spec §4, §5, §6). It edits `popup.draft`
 * (state/popup.ts: a copy taken with the snapshot when editing began) and sends nothing until
 * Save, which calls `saveMarker` (state/editor.ts) with the draft prepared by the domain rules
 * (src/domain/marker-edit.ts: trimmed texts, numeric level, known fields) and the version the
 * edit is based on (the draft's: the snapshot's, moved on by an upload or a kept conflict).
 * Save waits while a file uploads (the upload moves the version on), and while a conflict of the
 * marker waits for Keep mine / Take theirs. Cancel drops the draft. Copy arms the next map click to
 * place a copy of what the form shows (typed changes included; the click closes this popup, and
 * its unsaved edit is set aside, state/popup.ts); Delete asks 'Are you sure?' first. Images upload at once (ImagesField).
 *
 * Keyboard: every field has a label. There is no submit: Enter in a text box does nothing but
 * search in the quest / item search boxes, and Save is an ordinary button, far down the form;
 * Ctrl+Enter (⌘+Enter on a Mac) anywhere in the form is Save (`isSaveKey`). Escape: map-wide it
 * closes the popup (Popup.tsx); inside a field of this form it leaves edit mode instead — the
 * popup stays open in view mode on the saved marker with focus on its Edit button — and a
 * second Escape closes the popup as usual. Escape is easily pressed by accident, so typed
 * changes are not dropped by it: they are set aside as a close sets them aside (state/popup.ts
 * `leaveEdit`; the dock's "Back to them" brings the form back as it was), and the page says so
 * ("Not saved: your changes were set aside…"), so they are not silently not saved. Only the
 * Cancel button drops them. Outside the fields (a button, the dialog) Escape keeps its map-wide meaning.
 * Ctrl+Z in a text field is the field's own text undo; elsewhere (the buttons, the map) it is
 * the map's undo only: the browser's undo is stopped while the form is open, since it would wipe
 * typing in a field the focus has left. An undo that changes this marker moves the form with it
 * (state/popup.ts `followPageCopy`): untouched fields show the undone values, typed ones stay.
 * One that takes the marker away (an undone place) closes the form, its typed work set aside
 * (`closeEditRemoved`): its Save would add the marker back and silently cancel the undo.
 */
import { Fragment, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { CATEGORIES } from '../../domain/categories';
import type { Marker } from '../../domain/marker';
import { MARKER_BOUNDS } from '../../domain/marker';
import { sameMarker } from '../../domain/marker-compare';
import { parseLevel, prepareMarkerForSave } from '../../domain/marker-edit';
import { textLimit, type MarkerFieldProblem } from '../../domain/marker-problem';
import type { MapDefinition } from '../../domain/maps';
import { isLanguage } from '../../i18n';
import { SubCategoryIcon } from '../icons/SubCategoryIcon';
import { deleteMarker, editor, saveMarker, startCopy } from '../../state/editor';
import { selectMarker } from '../../state/mapView';
import { returnFocusAfterClose } from './popupFocus';
import { finishEdit, leaveEdit, markerChanged, patchDraft, popup } from '../../state/popup';
import { keyTarget, stopsBrowserUndo } from '../map/editorKeys';
import { categoryLabel, subCategoryLabel } from '../panels/labels';
import { announce, clearAnnouncement } from '../LiveAnnouncer';
import { imageElsewhere, ImagesField } from './ImagesField';
import { ItemsField } from './ItemsField';
import { levelName } from './levelName';
import { markerActionErrorText, type MarkerActionError } from './failureText';
import { inFormOrder, problemText } from './fieldProblem';
import { counterShown, LengthCounter } from './LengthCounter';
import { MarkerEditorStatus, settled } from './MarkerEditorStatus';
import { MarkerHistory } from './MarkerHistory';
import { QuestLinkField } from './QuestLinkField';

/** The confirmation before a delete, word for word from the spec (§5): the English page asks exactly this. */
export const DELETE_CONFIRMATION = 'Are you sure?';

/**
 * The delete confirmation in the page's language: the spec's words in English
 * (`markerEdit.deleteConfirm` is DELETE_CONFIRMATION), "Вы уверены?" in Russian.
 */
export function deleteConfirmation(t: TFunction): string {
  return t('markerEdit.deleteConfirm');
}

export interface MarkerEditFormProps {
  map: MapDefinition;
  /** Cancel (the button; Escape in a field too, once its typed changes are set aside). */
  onCancel: () => void;
  /** Saved: the form ends (the popup shows the saved marker; the keyboard goes back to its Edit). */
  onSaved?: () => void;
  /**
   * Set when the form was opened by the user's Edit (not edit-on-open while placing): its first
   * field takes the focus as the form shows, and the flag is cleared.
   */
  focusFirstField?: { current: boolean };
}

const FIELD_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Ctrl+Enter, or ⌘+Enter (a Mac's): the form's Save from anywhere in it. */
export function isSaveKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** The Save key as this device writes it, for the button's title. */
function saveKeyName(): string {
  const platform = typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad/.test(platform) ? '⌘+Enter' : 'Ctrl+Enter';
}

/** The languages of the text fields in order: the page's first (what the page shows), then the other. */
export function textOrder(lang: 'en' | 'ru'): ['en', 'ru'] | ['ru', 'en'] {
  return lang === 'ru' ? ['ru', 'en'] : ['en', 'ru'];
}

function plain(marker: Marker): Marker {
  return JSON.parse(JSON.stringify(marker)) as Marker;
}

export function MarkerEditForm({ map, onCancel, onSaved, focusFirstField }: MarkerEditFormProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  // sync: typing into a controlled input must not wait a tick (the caret would jump).
  const { draft, snapshot } = useSnapshot(popup, { sync: true });
  const { copying, conflicts } = useSnapshot(editor);
  const [levelText, setLevelText] = useState(() => (draft ? String(draft.level) : ''));
  const [busy, setBusy] = useState<'saving' | 'deleting' | null>(null);
  // What failed, said at render: the message follows a language switch made while it shows.
  const [error, setError] = useState<MarkerActionError | null>(null);
  /**
   * The fields the last Save / Copy objected to. Their objections are checked again as the admin
   * types: one put right goes (its field is no longer marked); new ones wait for the next Save,
   * so typing elsewhere raises no alert. Save and Cancel end the form, and them with it.
   */
  const [flagged, setFlagged] = useState<string[]>([]);
  /** The sites of the images the last Save refused (ImagesField says it under each field too); said at render. */
  const [foreign, setForeign] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const id = useId();
  const mounted = useRef(true);
  /** Where the form's objections and a failed call show: scrolled to when they change, since the form may be scrolled far above them. */
  const problems = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** Bumped by a Save that did not go through: its message (the editor's status, at the form's top) is brought into view once drawn. */
  const [showStatus, setShowStatus] = useState(0);
  useEffect(() => {
    if (showStatus > 0) formRef.current?.querySelector('.marker-edit__status')?.scrollIntoView?.({ block: 'nearest' });
  }, [showStatus]);
  const firstField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Mount only: a keyboard user who pressed Edit types the name at once; edit-on-open leaves
    // the focus on the map, where the next marker is placed.
    if (!focusFirstField?.current) return;
    focusFirstField.current = false;
    firstField.current?.focus({ preventScroll: true });
  }, [focusFirstField]);
  useEffect(() => {
    if (flagged.length > 0 || foreign.length > 0 || error) problems.current?.scrollIntoView?.({ block: 'nearest' });
  }, [flagged, foreign, error]);
  /** The level field's objection or warning, brought into view as it appears (it sits under the field, near the Save row). */
  const levelNote = useRef<HTMLParagraphElement>(null);
  const levelNoteKey = levelText.trim();
  useEffect(() => {
    levelNote.current?.scrollIntoView?.({ block: 'nearest' });
  }, [levelNoteKey]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    // Ctrl+Z outside a text field (the form's buttons, the map) is the map's undo alone: the
    // browser's own undo would also wipe typing in a field the focus has left (editorKeys.ts).
    const stopBrowserUndo = (event: globalThis.KeyboardEvent) => {
      if (stopsBrowserUndo(event, keyTarget(event.target))) event.preventDefault();
    };
    window.addEventListener('keydown', stopBrowserUndo, true);
    return () => window.removeEventListener('keydown', stopBrowserUndo, true);
  }, []);
  // The level follows the draft where it moved under the form (an undo of the map: popup.ts
  // `followPageCopy`; another admin's change followed by a form with nothing typed); what the
  // admin types sets the draft, so it is never put back. A field being typed that is not a
  // number yet (emptied, a lone minus) is the admin's and stays as typed (left so, Save says
  // the level is missing, as ever).
  const draftLevel = draft?.level;
  useEffect(() => {
    if (draftLevel === undefined) return;
    setLevelText((text) => {
      const typed = parseLevel(text);
      return !typed.ok || typed.level === draftLevel ? text : String(draftLevel);
    });
  }, [draftLevel]);

  if (!draft) return null;
  const uid = draft.uid;
  const parsedLevel = parseLevel(levelText);
  const level = parsedLevel.ok ? parsedLevel.level : null;
  // A level the map does not list is allowed (old data, floors to come: marker-bounds.ts) but
  // shows faded on every floor, so the form says so before it is saved.
  const levelNotOnMap = level !== null && !map.levels.some((l) => l.num === level);
  const disabled = busy !== null;
  // While another admin's version waits for Keep mine / Take theirs, Save waits too: a save now
  // would send the draft whole on the version the edit began from (and be refused again).
  const undecided = !!conflicts[uid];
  /** Typed changes the form holds (which a copy takes, and a close sets aside). */
  const typed = snapshot !== null && (!sameMarker(snapshot as Marker, draft as Marker) || level !== snapshot.level);
  const category = CATEGORIES.find((c) => c.id === draft.category);
  const subCategories = category?.subCategories.map((s) => s.id) ?? [];
  if (!subCategories.includes(draft.subCategory)) subCategories.unshift(draft.subCategory);

  // A language emptied that the marker had no text for goes back to none: nothing typed, nothing sent.
  const setL10n = (field: 'name_l10n' | 'desc_l10n', language: 'en' | 'ru', value: string) => {
    const table: Record<string, string> = { ...draft[field], [language]: value };
    if (value === '' && !(snapshot && language in snapshot[field])) delete table[language];
    patchDraft({ [field]: table });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (isSaveKey(event) && !event.nativeEvent.isComposing) {
      // Save without 14 Tabs down the form; the map's Enter (a click at the cross-hair) is not meant.
      event.preventDefault();
      event.stopPropagation();
      void save();
      return;
    }
    if (event.key !== 'Escape' || !(event.target instanceof HTMLElement) || !FIELD_TAGS.has(event.target.tagName)) return;
    // Ours, not the popup's (which would close it) nor the map's.
    event.preventDefault();
    event.stopPropagation();
    // Typed changes are set aside, not dropped (an accidental Escape loses nothing); then as Cancel.
    const before = popup.setAside;
    leaveEdit();
    // Said, so it is not taken for a save (the dock's notice, which offers them back, may not be read as it appears).
    if (popup.setAside && popup.setAside !== before && popup.setAside.uid === uid) announce(t('markerEdit.setAsideSaid'));
    onCancel();
  };

  // The flagged fields' objections now (src/domain/marker-problem.ts), in the form's order.
  const checked = flagged.length > 0 ? prepareMarkerForSave({ ...plain(draft as Marker), level: levelText }) : null;
  const shown = checked && !checked.ok ? inFormOrder(checked.problems.filter((p) => flagged.includes(p.field)), lang) : [];
  const problemId = (field: string) => `${id}-problem-${field.replace(/[^A-Za-z0-9]/g, '-')}`;
  /** The id of the objection to `field` shown below the form, if any (for its aria-describedby). */
  const problemFor = (field: string): string | undefined => (shown.some((p) => p.field === field) ? problemId(field) : undefined);
  /** A field's marking: invalid while an objection to it shows, described by it (and by `others`: a hint, a count). */
  const fieldAria = (field: string, ...others: Array<string | undefined>) => {
    const problem = problemFor(field);
    return { 'aria-invalid': problem ? true : undefined, 'aria-describedby': [...others, problem].filter(Boolean).join(' ') || undefined };
  };
  /** The count under a long text field (`field` a path: `desc_l10n.ru`), and its id while it shows. */
  const counter = (field: string, text: string) => {
    const limit = textLimit(field) ?? Infinity;
    const counterId = `${id}-count-${field.replace(/[^A-Za-z0-9]/g, '-')}`;
    return { id: counterShown(text.length, limit) ? counterId : undefined, node: <LengthCounter id={counterId} length={text.length} limit={limit} /> };
  };

  /** One objection (src/domain/marker-problem.ts) as text in the page's language, naming the field by its label. */
  const describe = (problem: MarkerFieldProblem): string => (problem.kind === 'level' ? levelError(levelText) : problemText(t, problem));

  /** Why the level typed is refused: not a whole number, or outside the bounds every marker keeps. */
  function levelError(text: string): string {
    const parsed = parseLevel(text);
    if (parsed.ok || !Number.isInteger(Number(text.trim())) || text.trim() === '') return t('markerEdit.levelInvalid');
    return t('markerEdit.levelOutOfRange', MARKER_BOUNDS.level);
  }

  /** Copy takes what the form shows, typed changes included (the saved marker where nothing is typed). */
  const copy = () => {
    const current = popup.draft;
    if (!current) return;
    const result = prepareMarkerForSave({ ...plain(current), level: levelText });
    setForeign([]);
    if (!result.ok) {
      setFlagged(result.problems.map((p) => p.field));
      return;
    }
    setFlagged([]);
    startCopy(uid, result.marker);
  };

  /**
   * The sites of new images on another site (ImagesField says so under each field): the server
   * refuses them, so Save says it here instead of sending. An image the marker had when the edit
   * began stays allowed, as the server keeps it (src/domain/image-source.ts).
   */
  const foreignImages = (marker: Marker): string[] =>
    marker.imgs.flatMap((image) => {
      if (popup.snapshot?.imgs.some((kept) => kept.img === image.img)) return [];
      const origin = imageElsewhere(image.img);
      return origin ? [origin] : [];
    });

  const save = async () => {
    const current = popup.draft;
    if (!current || busy || uploading || editor.conflicts[uid]) return;
    // The draft carries the version the edit is based on (the snapshot's, or a rebase's).
    const result = prepareMarkerForSave({ ...plain(current), level: levelText });
    if (!result.ok) {
      setForeign([]);
      setFlagged(result.problems.map((p) => p.field));
      return;
    }
    setFlagged([]);
    const elsewhere = foreignImages(result.marker);
    setForeign(elsewhere);
    if (elsewhere.length > 0) return;
    setBusy('saving');
    setError(null);
    // Said in the page's live region (LiveAnnouncer.tsx), which outlives this form; errors are alerts here.
    announce(t('markerEdit.saving'));
    try {
      const saved = await saveMarker({ ...result.marker, version: current.version });
      if (saved) {
        announce(t('markerEdit.saved'));
        onSaved?.();
        finishEdit();
        markerChanged(uid);
      } else {
        // The failure is in editor.pending / editor.conflict, shown (role="alert") at the top of
        // the form: brought into view, as the form may be scrolled far below it (a long form, a phone).
        clearAnnouncement();
        if (mounted.current) setShowStatus((n) => n + 1);
      }
    } catch (failure) {
      clearAnnouncement();
      if (mounted.current) setError({ kind: 'saveFailed', failure });
    } finally {
      if (mounted.current) setBusy(null);
    }
  };

  const remove = async () => {
    if (busy || !window.confirm(deleteConfirmation(t))) return;
    setBusy('deleting');
    setError(null);
    announce(t('markerEdit.deleting'));
    try {
      const deleted = await deleteMarker(uid);
      if (deleted) {
        announce(t('markerEdit.deleted'));
        finishEdit();
        selectMarker(null);
        // Not left on the page's body: back to what opened the popup, else the map (popupFocus.ts).
        void returnFocusAfterClose();
      } else {
        clearAnnouncement();
        if (settled(uid) && mounted.current) setError({ kind: 'deleteFailedUnknown' });
      }
    } catch (failure) {
      clearAnnouncement();
      if (mounted.current) setError({ kind: 'deleteFailed', failure });
    } finally {
      if (mounted.current) setBusy(null);
    }
  };

  const nameCount = counter('name', draft.name);
  const descCount = counter('desc', draft.desc);
  const levelHint = map.levels.map((l) => `${l.num} — ${levelName(t, map, l.num)}`).join(', ');

  return (
    <form
      ref={formRef}
      className="marker-edit"
      aria-label={t('markerEdit.formLabel')}
      onSubmit={(event) => event.preventDefault()}
      onKeyDown={onKeyDown}
      noValidate
    >
      <MarkerEditorStatus
        uid={uid}
        onSaved={() => {
          announce(t('markerEdit.saved'));
          onSaved?.();
          finishEdit();
          markerChanged(uid);
        }}
      />

      <fieldset className="marker-edit__group" disabled={disabled}>
        <legend>{t('markerEdit.texts')}</legend>
        {/* The page shows name_l10n[lang], else `name` (domain/marker.ts `localized`): the page's
            language first (it takes the focus), then the other, then the fallback. */}
        {textOrder(lang).map((language, i) => {
          const text = draft.name_l10n[language] ?? '';
          const count = counter(`name_l10n.${language}`, text);
          return (
            <Fragment key={`name-${language}`}>
              <label>
                {language === 'en' ? t('markerEdit.nameEn') : t('markerEdit.nameRu')}
                <input
                  ref={i === 0 ? firstField : undefined}
                  type="text"
                  lang={language}
                  value={text}
                  {...fieldAria(`name_l10n.${language}`, count.id)}
                  onChange={(event) => setL10n('name_l10n', language, event.target.value)}
                />
              </label>
              {count.node}
            </Fragment>
          );
        })}
        <label>
          {t('markerEdit.name')}
          <input type="text" value={draft.name} {...fieldAria('name', `${id}-fallback`, nameCount.id)} onChange={(event) => patchDraft({ name: event.target.value })} />
        </label>
        {nameCount.node}
        {textOrder(lang).map((language) => {
          const text = draft.desc_l10n[language] ?? '';
          const count = counter(`desc_l10n.${language}`, text);
          return (
            <Fragment key={`desc-${language}`}>
              <label>
                {language === 'en' ? t('markerEdit.descEn') : t('markerEdit.descRu')}
                <textarea
                  rows={2}
                  lang={language}
                  value={text}
                  {...fieldAria(`desc_l10n.${language}`, count.id)}
                  onChange={(event) => setL10n('desc_l10n', language, event.target.value)}
                />
              </label>
              {count.node}
            </Fragment>
          );
        })}
        <label>
          {t('markerEdit.desc')}
          <textarea rows={2} value={draft.desc} {...fieldAria('desc', `${id}-fallback`, descCount.id)} onChange={(event) => patchDraft({ desc: event.target.value })} />
        </label>
        {descCount.node}
        <p id={`${id}-fallback`} className="marker-edit__hint">
          {t('markerEdit.fallbackHint')}
        </p>
      </fieldset>

      <fieldset className="marker-edit__group" disabled={disabled}>
        <legend>{t('markerEdit.type')}</legend>
        <label>
          {t('markerEdit.category')}
          <select
            value={draft.category}
            {...fieldAria('category')}
            onChange={(event) => {
              const next = CATEGORIES.find((c) => c.id === event.target.value);
              if (next) patchDraft({ category: next.id, subCategory: next.subCategories[0].id });
            }}
          >
            {!category && <option value={draft.category}>{draft.category}</option>}
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {categoryLabel(t, c.id)}
              </option>
            ))}
          </select>
        </label>
        <div className="marker-edit__row marker-edit__row--icon">
          <label>
            {t('markerEdit.subCategory')}
            <select value={draft.subCategory} {...fieldAria('subCategory')} onChange={(event) => patchDraft({ subCategory: event.target.value })}>
              {subCategories.map((sub) => (
                <option key={sub} value={sub}>
                  {subCategoryLabel(t, sub)}
                </option>
              ))}
            </select>
          </label>
          <SubCategoryIcon className="marker-edit__icon" subCategory={draft.subCategory} size={24} />
        </div>
        <label>
          {t('markerEdit.level')}
          <input
            type="number"
            step={1}
            inputMode="numeric"
            list={`${id}-levels`}
            value={levelText}
            aria-invalid={level === null}
            aria-describedby={`${id}-level-hint${level === null ? ` ${id}-level-error` : ''}${levelNotOnMap ? ` ${id}-level-warning` : ''}`}
            onChange={(event) => {
              setLevelText(event.target.value);
              const next = parseLevel(event.target.value);
              if (next.ok) patchDraft({ level: next.level });
            }}
          />
        </label>
        <datalist id={`${id}-levels`}>
          {map.levels.map((l) => (
            <option key={l.num} value={l.num}>
              {levelName(t, map, l.num)}
            </option>
          ))}
        </datalist>
        {level === null && (
          <p id={`${id}-level-error`} ref={levelNote} className="marker-edit__error">
            {levelError(levelText)}
          </p>
        )}
        {levelNotOnMap && (
          <p id={`${id}-level-warning`} ref={levelNote} className="marker-edit__hint">
            {t('markerEdit.levelNotOnMap', { level, map: t(`maps.${map.id}`, { defaultValue: map.name }) })}
          </p>
        )}
        <p id={`${id}-level-hint`} className="marker-edit__hint">
          {t('markerEdit.levelHint', { levels: levelHint })}
        </p>
      </fieldset>

      <QuestLinkField questUid={draft.questUid} lang={lang} disabled={disabled} onChange={(questUid) => patchDraft({ questUid })} />
      <ItemsField itemsUid={draft.itemsUid} lang={lang} disabled={disabled} onChange={(itemsUid) => patchDraft({ itemsUid })} />
      <ImagesField uid={uid} imgs={draft.imgs} disabled={disabled} onChange={(imgs) => patchDraft({ imgs })} onUploadingChange={setUploading} problemFor={problemFor} />

      <div ref={problems} className="marker-edit__problems">
        {(shown.length > 0 || foreign.length > 0) && (
          <ul role="alert" className="marker-edit__error marker-edit__invalid">
            {shown.map((problem) => (
              <li key={problem.field} id={problemId(problem.field)}>
                {describe(problem)}
              </li>
            ))}
            {foreign.map((origin) => (
              <li key={origin}>{t('markerEdit.imageElsewhere', { origin })}</li>
            ))}
          </ul>
        )}
        {error && (
          <p role="alert" className="marker-edit__error">
            {markerActionErrorText(t, error)}
          </p>
        )}
      </div>
      {/* Seen here, heard from the page's live region (announce above). */}
      {busy === 'saving' && <p className="marker-edit__hint">{t('markerEdit.saving')}</p>}
      {busy === 'deleting' && <p className="marker-edit__hint">{t('markerEdit.deleting')}</p>}
      {copying === uid && (
        <p role="status" className="marker-edit__hint">
          {t(typed ? 'markerEdit.copyingTyped' : 'markerEdit.copying')}
        </p>
      )}

      <div className="marker-edit__actions" role="group" aria-label={t('markerEdit.actions')}>
        <button
          type="button"
          className="marker-edit__primary"
          title={t('markerEdit.saveKey', { key: saveKeyName() })}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          onClick={() => void save()}
          disabled={disabled || uploading || undecided || level === null}
        >
          {t('markerEdit.save')}
        </button>
        <button type="button" onClick={onCancel} disabled={disabled}>
          {t('markerEdit.cancel')}
        </button>
        <button type="button" onClick={copy} disabled={disabled || level === null}>
          {t('markerEdit.copy')}
        </button>
        <button type="button" className="marker-edit__danger" onClick={() => void remove()} disabled={disabled || uploading}>
          {t('markerEdit.delete')}
        </button>
      </div>

      <MarkerHistory uid={uid} />
    </form>
  );
}

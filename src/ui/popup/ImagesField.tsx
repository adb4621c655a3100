/**
 * The edit form's images: each with its URL, name and description, moved up / down, removed, or
 * given a file (uploaded at once: `uploadImage(uid, index, file, onProgress, …, replaces)` from
 * state/editor.ts, with a progress bar). A file that is not a PNG / JPEG / WebP image or is
 * larger than the server takes, or an upload that fails, shows a clear message and changes
 * nothing. A finished upload is stored on the server already (version + 1): the edit is rebased
 * on the stored marker (state/popup.ts `rebaseEdit`) and the draft takes the new image URL.
 * While a file uploads, the images cannot be moved or removed (the upload targets an index),
 * and the form does not save (`onUploadingChange`). The server writes the file into its stored
 * image, the one the upload names: the row the admin picked is matched to the stored image it
 * shows (`uploadSlot`, src/domain/image-upload.ts), so a row moved or added before the upload
 * (not saved yet) gets the file where it is, and the Save keeps the order the form shows.
 * When another admin changed that image meanwhile the server answers 409 with the stored marker
 * and replaces nothing: the form takes their images, the admin's other typed changes kept
 * (./uploadConflict.ts), and says so above the images with their change.
 * An image URL on another site says so under its field before anything is sent: the pages'
 * CSP would not show it, and the server refuses a new one (src/domain/image-source.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConflictError } from '../../api/admin';
import { cdnImageOrigins, externalImageOrigin, imageSourceProblem } from '../../domain/image-source';
import { uploadSlot as storedSlot, type UploadSlot } from '../../domain/image-upload';
import type { Marker, MarkerImage } from '../../domain/marker';
import { addImage, moveImage, removeImage } from '../../domain/marker-edit';
import { textLimit } from '../../domain/marker-problem';
import { uploadImage } from '../../state/editor';
import { popup, rebaseEdit } from '../../state/popup';
import { failureText } from './failureText';
import { DiffList } from './DiffList';
import { counterShown, LengthCounter } from './LengthCounter';
import { imageFileName } from './markerDiff';
import { takeTheirImages, type TakenImages } from './uploadConflict';

/** The thumbnail's size in CSS pixels (fixed, so the rows do not jump as pictures load). */
export const THUMB_SIZE = 56;
const THUMB_STYLE = {
  width: THUMB_SIZE,
  height: THUMB_SIZE,
  objectFit: 'cover',
  flex: 'none',
  borderRadius: 4,
  border: '1px solid var(--border)',
  background: 'var(--bg-2, transparent)',
} as const;

/**
 * A small preview of an image row, so the admin sees which picture is moved or removed: lazy
 * (a long list loads only what is scrolled to), fixed size, its alt the image's name (else its
 * file's). No URL (a new image): nothing. A URL that does not load: a plain frame, no broken icon.
 */
export function ImageThumb({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = src.trim();
  // Only what the domain allows for an image (a path on this site, http(s)): nothing is fetched for half-typed text.
  if (!/^(\/[^/]|https?:\/\/)/i.test(url)) return null;
  if (failed === url) return <span className="marker-edit__thumb marker-edit__thumb--missing" style={{ ...THUMB_STYLE, display: 'block' }} aria-hidden="true" />;
  return (
    <img
      className="marker-edit__thumb"
      style={THUMB_STYLE}
      src={url}
      alt={alt}
      width={THUMB_SIZE}
      height={THUMB_SIZE}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(url)}
    />
  );
}

/** Origins besides this site's that images may come from: the build's CDN (VITE_CDN_BASE), as the pages' img-src. */
const CDN_IMAGE_ORIGINS = cdnImageOrigins(import.meta.env.VITE_CDN_BASE as string | undefined);

/**
 * The other site an image URL points to when the pages would not show it (the server refuses a
 * new one), or null: a path on this site, this site's or the CDN's URL, half-typed text.
 */
export function imageElsewhere(url: string, siteOrigin: string = window.location.origin, allowed: readonly string[] = CDN_IMAGE_ORIGINS): string | null {
  if (!imageSourceProblem(url, siteOrigin, allowed)) return null;
  return externalImageOrigin(url, siteOrigin);
}

/** What the server takes (server/routes/admin.ts MAX_UPLOAD_BYTES and the image types it detects). */
export const MAX_UPLOAD_MB = 5;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;
export const UPLOAD_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

export interface ImagesFieldProps {
  uid: string;
  imgs: readonly MarkerImage[];
  onChange: (imgs: MarkerImage[]) => void;
  disabled?: boolean;
  /** Told when an upload starts and ends. */
  onUploadingChange?: (uploading: boolean) => void;
  /**
   * The id of the form's objection to a field (`imgs.1.name`, the draft's index), while one shows:
   * that field is marked invalid and described by it (MarkerEditForm).
   */
  problemFor?: (field: string) => string | undefined;
}

type UploadState = { index: number; fraction: number } | null;
type UploadNote = { index: number; kind: 'done' | 'error'; text: string } | null;

/**
 * Why a file is refused before any upload, or null when it may go (the editor's own check, so
 * nothing is sent: the type, or the name's extension when the browser gives no type; the size).
 */
export function refuseFile(file: Pick<File, 'type' | 'size' | 'name'>): 'type' | 'size' | null {
  const type = (file.type || '').toLowerCase();
  if (type ? !UPLOAD_TYPES.includes(type) : !/\.(png|jpe?g|webp)$/i.test(file.name || '')) return 'type';
  if (file.size > MAX_UPLOAD_BYTES) return 'size';
  return null;
}

/**
 * Where an upload for row `row` goes: the stored image that row shows in the form's stored
 * marker (`base`, the edit's snapshot), wherever it is stored; a row the server does not have,
 * a new image at the end (src/domain/image-upload.ts). Without a base, the row itself. Another
 * image there now on the server (another admin's change): it answers 409.
 */
export function uploadSlot(base: Pick<Marker, 'uid' | 'imgs'> | null, uid: string, imgs: readonly MarkerImage[], row: number): UploadSlot {
  if (base && base.uid === uid) return storedSlot(base.imgs, imgs, row);
  return { index: row, replaces: imgs[row]?.img || null };
}

/** A 409 of the upload (the image it meant was changed meanwhile): the editor passes the API's ConflictError on as it came. */
export function isUploadConflict(error: unknown): error is ConflictError {
  return error instanceof ConflictError;
}

export function ImagesField({ uid, imgs, onChange, disabled, onUploadingChange, problemFor = () => undefined }: ImagesFieldProps) {
  const { t } = useTranslation();
  const [upload, setUpload] = useState<UploadState>(null);
  const busy = upload !== null;
  const notify = useRef(onUploadingChange);
  notify.current = onUploadingChange;
  useEffect(() => notify.current?.(busy), [busy]);
  const [note, setNote] = useState<UploadNote>(null);
  /** The last upload another admin's change stopped: the row picked, and what the form took (their images). */
  const [taken, setTaken] = useState<(TakenImages & { index: number }) | null>(null);
  /** Brought into view as it appears: it sits above the images, the row picked may be far below. */
  const takenBox = useRef<HTMLElement>(null);
  useEffect(() => {
    if (taken) takenBox.current?.scrollIntoView?.({ block: 'nearest' });
  }, [taken]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const list = imgs as MarkerImage[];
  const set = (index: number, patch: Partial<MarkerImage>) => onChange(list.map((image, i) => (i === index ? { ...image, ...patch } : image)));

  const send = async (index: number, input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const refused = refuseFile(file);
    if (refused) {
      setNote({
        index,
        kind: 'error',
        text: refused === 'size' ? t('markerEdit.uploadTooBig', { file: file.name, max: MAX_UPLOAD_MB }) : t('markerEdit.uploadNotImage', { file: file.name }),
      });
      return;
    }
    setNote(null);
    setTaken(null);
    setUpload({ index, fraction: 0 });
    // The stored image the row shows (moved rows included), not the stored image at the row's place.
    const slot = uploadSlot(popup.snapshot, uid, list, index);
    try {
      const onProgress = (fraction: number) => {
        if (mounted.current) setUpload({ index, fraction: Math.min(1, Math.max(0, fraction)) });
      };
      const stored: Marker = await uploadImage(uid, slot.index, file, onProgress, undefined, slot.replaces);
      // The new file goes into the row the admin picked; the rows keep the order the form shows.
      // The row is replaced, not written into: a moved row may be the form's frozen render copy.
      rebaseEdit(stored, (draft) => {
        const url = stored.imgs[slot.index]?.img;
        if (!url) return;
        if (draft.imgs[index]) draft.imgs[index] = { ...draft.imgs[index], img: url };
        else draft.imgs.push({ img: url, name: '', desc: '' });
      });
      if (mounted.current) setNote({ index, kind: 'done', text: t('markerEdit.uploadDone', { index: index + 1 }) });
    } catch (error) {
      // Taken while the form is still on that marker, even if this field was redrawn meanwhile.
      const took = isUploadConflict(error) && error.current ? takeTheirImages(uid, error.current) : null;
      if (!mounted.current) return;
      if (took) setTaken({ ...took, index });
      else setNote({ index, kind: 'error', text: isUploadConflict(error) ? t('markerEdit.uploadConflict', { index: index + 1 }) : t('markerEdit.uploadFailed', { message: failureText(t, error) }) });
    } finally {
      if (mounted.current) setUpload(null);
    }
  };

  return (
    <fieldset className="marker-edit__group" disabled={disabled}>
      <legend>{t('markerEdit.images')}</legend>
      {taken && (
        // Above the images: the row picked may be gone from their list.
        <section ref={takenBox} role="alert" className="marker-edit__conflict" aria-label={t('markerConflict.uploadTitle')}>
          <h3 className="marker-edit__heading">{t('markerConflict.uploadTitle')}</h3>
          <p>{t('markerConflict.uploadIntro', { index: taken.index + 1 })}</p>
          {taken.changes.length === 0 ? <p>{t('markerConflict.noFields')}</p> : <DiffList changes={taken.changes} />}
          {taken.droppedMine && <p>{t('markerConflict.uploadMineDropped')}</p>}
        </section>
      )}
      {list.length === 0 && <p className="marker-edit__none">{t('markerEdit.imagesNone')}</p>}
      <ol className="marker-edit__images">
        {list.map((image, index) => {
          const n = index + 1;
          const uploading = upload?.index === index;
          const elsewhere = imageElsewhere(image.img);
          const elsewhereId = `marker-edit-image-elsewhere-${uid}-${index}`;
          const urlProblem = problemFor(`imgs.${index}.img`);
          /** A text of the image with its count (near its bound) and the form's objection, if any. */
          const text = (key: 'name' | 'desc') => {
            const limit = textLimit(`imgs.${index}.${key}`) ?? Infinity;
            const countId = `marker-edit-image-count-${uid}-${index}-${key}`;
            const problem = problemFor(`imgs.${index}.${key}`);
            const describedBy = [counterShown(image[key].length, limit) ? countId : undefined, problem].filter(Boolean).join(' ');
            return {
              aria: { 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy || undefined },
              counter: <LengthCounter id={countId} length={image[key].length} limit={limit} />,
            };
          };
          const name = text('name');
          const desc = text('desc');
          return (
            <li key={index} className="marker-edit__image">
              <fieldset className="marker-edit__subgroup">
                <legend>{t('markerEdit.image', { index: n })}</legend>
                <div style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}>
                  <ImageThumb src={image.img} alt={image.name || imageFileName(image.img) || t('markerEdit.image', { index: n })} />
                  <label style={{ flex: 1, minWidth: 0 }}>
                    {t('markerEdit.imageUrl', { index: n })}
                    <input
                      type="text"
                      value={image.img}
                      aria-invalid={elsewhere || urlProblem ? true : undefined}
                      aria-describedby={[elsewhere ? elsewhereId : undefined, urlProblem].filter(Boolean).join(' ') || undefined}
                      onChange={(event) => set(index, { img: event.target.value })}
                    />
                  </label>
                </div>
                {elsewhere && (
                  <p id={elsewhereId} className="marker-edit__error" role="alert">
                    {t('markerEdit.imageElsewhere', { origin: elsewhere })}
                  </p>
                )}
                <label>
                  {t('markerEdit.imageName', { index: n })}
                  <input type="text" value={image.name} {...name.aria} onChange={(event) => set(index, { name: event.target.value })} />
                </label>
                {name.counter}
                <label>
                  {t('markerEdit.imageDesc', { index: n })}
                  <input type="text" value={image.desc} {...desc.aria} onChange={(event) => set(index, { desc: event.target.value })} />
                </label>
                {desc.counter}
                <div className="marker-edit__row">
                  <button type="button" onClick={() => onChange(moveImage(list, index, index - 1))} disabled={busy || index === 0}>
                    {t('markerEdit.imageUp', { index: n })}
                  </button>
                  <button type="button" onClick={() => onChange(moveImage(list, index, index + 1))} disabled={busy || index === list.length - 1}>
                    {t('markerEdit.imageDown', { index: n })}
                  </button>
                  <button type="button" onClick={() => onChange(removeImage(list, index))} disabled={busy}>
                    {t('markerEdit.imageRemove', { index: n })}
                  </button>
                </div>
                <label>
                  {t('markerEdit.imageUpload', { index: n })}
                  <input
                    type="file"
                    accept={UPLOAD_TYPES.join(',')}
                    disabled={busy}
                    aria-describedby={`marker-edit-upload-hint-${uid}`}
                    onChange={(event) => void send(index, event.currentTarget)}
                  />
                </label>
                {uploading && (
                  <div className="marker-edit__upload">
                    <progress max={1} value={upload.fraction} aria-label={t('markerEdit.uploadProgress', { index: n })} />
                    <span>{t('markerEdit.uploading', { index: n, percent: Math.round(upload.fraction * 100) })}</span>
                  </div>
                )}
                {note?.index === index && (
                  <p className={note.kind === 'error' ? 'marker-edit__error' : 'marker-edit__hint'} role={note.kind === 'error' ? 'alert' : 'status'}>
                    {note.text}
                  </p>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p id={`marker-edit-upload-hint-${uid}`} className="marker-edit__hint">
        {t('markerEdit.imageUploadHint', { max: MAX_UPLOAD_MB })}
      </p>
      <button type="button" onClick={() => onChange(addImage(list))} disabled={busy}>
        {t('markerEdit.imageAdd')}
      </button>
    </fieldset>
  );
}

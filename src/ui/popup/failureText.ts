/**
 * The editor's failures as text in the UI language. The editor (src/editor/commands.ts) reports
 * `{ code, message, detail }` (an `EditorError` carries the same); a known code is translated
 * with its detail (the server's own words), anything else shows its English message. A detail
 * that is only technical words (a status's reason phrase such as "Internal Server Error") is
 * said by its kind instead, as every request failure is (ui/requestFailure.ts).
 */
import type { TFunction } from 'i18next';
import { technicalFailureReason } from '../requestFailure';

interface FailureLike {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
}

/**
 * The upload route's refusals of a file (server/routes/admin.ts `decodeBase64Image`) by their
 * English words, shown in the page's language: a server of this project sends `not_image` as a
 * code (the editor makes it `fileType`), the rest (a body over the limit, unreadable base64,
 * an older server) come here. Anything else keeps the server's words.
 */
export function uploadRefusal(t: TFunction, detail: string): string | null {
  if (/not a PNG, JPEG or WebP image|only PNG, JPEG or WebP images are accepted/i.test(detail)) return t('markerEdit.errors.fileType');
  if (/larger than \d+(\.\d+)? MB|body is too large|payload too large/i.test(detail)) return t('markerEdit.errors.fileTooLarge');
  if (/is not valid base64|data URL must be base64/i.test(detail)) return t('markerEdit.errors.fileUnreadable');
  return null;
}

function translated(t: TFunction, code: string, detail: string): string | null {
  switch (code) {
    case 'offline':
      return t('markerEdit.errors.offline');
    case 'saveFailed':
      return technicalFailureReason(t, detail) ?? t('markerEdit.errors.saveFailed', { detail });
    case 'deletedElsewhere':
      return t('markerEdit.errors.deletedElsewhere');
    case 'deleteFailed':
      return technicalFailureReason(t, detail) ?? t('markerEdit.errors.deleteFailed', { detail });
    case 'fileType':
      return t('markerEdit.errors.fileType');
    case 'fileSize':
      return t('markerEdit.errors.fileSize', { detail });
    case 'uploadFailed':
      return uploadRefusal(t, detail) ?? technicalFailureReason(t, detail) ?? t('markerEdit.errors.uploadFailed', { detail });
    case 'notOnMap':
      return t('markerEdit.errors.notOnMap');
    default:
      return null;
  }
}

/** A failure (an editor failure, an Error, a string or nothing) as one line of text. */
export function failureText(t: TFunction, failure: unknown): string {
  if (typeof failure === 'string' && failure) return failure;
  if (failure && typeof failure === 'object') {
    const { code, message, detail } = failure as FailureLike;
    const detailText = typeof detail === 'string' ? detail : '';
    if (typeof code === 'string') {
      const text = translated(t, code, detailText || (typeof message === 'string' ? message : ''));
      if (text) return text;
    }
    if (typeof message === 'string' && message) return message;
  }
  return t('markerEdit.errors.unknown');
}

/**
 * A failed save or delete of the marker popup, kept as what happened (the failure itself), not
 * as words: said at render (`markerActionErrorText`), so an EN↔RU switch made while it shows
 * changes it with the form around it.
 */
export type MarkerActionError = { kind: 'saveFailed' | 'deleteFailed'; failure: unknown } | { kind: 'deleteFailedUnknown' };

/** A MarkerActionError as text in the page's language now. */
export function markerActionErrorText(t: TFunction, error: MarkerActionError): string {
  switch (error.kind) {
    case 'saveFailed':
      return t('markerEdit.saveFailed', { message: failureText(t, error.failure) });
    case 'deleteFailed':
      return t('markerEdit.deleteFailed', { message: failureText(t, error.failure) });
    case 'deleteFailedUnknown':
      return t('markerEdit.deleteFailedUnknown');
  }
}

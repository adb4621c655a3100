import type { TFunction } from 'i18next';

/**
 * Why the folder watch could not start, from the DOMException the browser threw: its message is
 * the browser's own English (Chrome: "The request is not allowed by the user agent…"), so the
 * page says the reason in its own words by the error's name, and keeps the message only for an
 * error it does not know.
 *
 * - NotAllowedError: the visitor (or the browser) refused to let the page read the folder;
 * - NotFoundError: the folder went (moved or deleted) between picking and listing it;
 * - SecurityError: the browser does not let this page open a picker here (inside another site's
 *   frame, or without a fresh press of the button);
 * - anything else: an unexpected error, with the browser's message as a detail.
 *
 * An AbortError is the visitor closing the picker without choosing: nothing to say (null).
 */
export type FolderFailure = 'notAllowed' | 'notFound' | 'security' | 'other';

const BY_NAME = new Map<string, FolderFailure>([
  ['NotAllowedError', 'notAllowed'],
  ['NotFoundError', 'notFound'],
  ['SecurityError', 'security'],
]);

/** The reasons in words (literal keys, so the translations' tests see them asked for). */
const WHY: Record<FolderFailure, string> = {
  notAllowed: 'pilot.folder.why.notAllowed',
  notFound: 'pilot.folder.why.notFound',
  security: 'pilot.folder.why.security',
  other: 'pilot.folder.why.other',
};

/** The failure kind of a thrown error, or null when the visitor cancelled (AbortError). */
export function folderFailureOf(error: unknown): FolderFailure | null {
  const name = errorName(error);
  if (name === 'AbortError') return null;
  return (name !== null && BY_NAME.get(name)) || 'other';
}

/** The browser's own words for an error the page has no reason for ("TypeError: …"), or null. */
export function folderFailureDetail(error: unknown): string | null {
  const name = errorName(error);
  const message = typeof (error as { message?: unknown })?.message === 'string' ? (error as { message: string }).message.trim() : String(error ?? '').trim();
  if (message === '') return name;
  return name !== null && name !== 'Error' && !message.startsWith(name) ? `${name}: ${message}` : message;
}

/** "The folder could not be watched: <reason>", in the page's language. */
export function folderFailureText(t: TFunction, failure: FolderFailure): string {
  return t('pilot.folder.failed', { message: t(WHY[failure]) });
}

function errorName(error: unknown): string | null {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return typeof name === 'string' && name !== '' ? name : null;
}

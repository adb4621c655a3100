/**
 * A failed request said in the page's language (src/api/failureKind.ts decides the kind):
 * `failureReason` — what happened and what to do, to follow a colon ("Your progress could not
 * be saved: the server had a problem — try again in a moment."); `failureCause` — only what
 * happened, for a sentence that says what to do itself. Never the HTTP reason phrase or the
 * browser's English.
 */
import type { TFunction } from 'i18next';
import { failureKind, failureKindOfText, type FailureKind } from '../api/failureKind';

const REASON: Record<FailureKind, string> = {
  network: 'failure.reason.network',
  server: 'failure.reason.server',
  tooMany: 'failure.reason.tooMany',
  signedOut: 'failure.reason.signedOut',
  forbidden: 'failure.reason.forbidden',
  notFound: 'failure.reason.notFound',
  conflict: 'failure.reason.conflict',
  tooLarge: 'failure.reason.tooLarge',
  refused: 'failure.reason.refused',
  badAnswer: 'failure.reason.badAnswer',
  unknown: 'failure.reason.unknown',
};

const CAUSE: Record<FailureKind, string> = {
  network: 'failure.cause.network',
  server: 'failure.cause.server',
  tooMany: 'failure.cause.tooMany',
  signedOut: 'failure.cause.signedOut',
  forbidden: 'failure.cause.forbidden',
  notFound: 'failure.cause.notFound',
  conflict: 'failure.cause.conflict',
  tooLarge: 'failure.cause.tooLarge',
  refused: 'failure.cause.refused',
  badAnswer: 'failure.cause.badAnswer',
  unknown: 'failure.cause.unknown',
};

/** What happened and what to do (lower case, ends with a full stop). */
export function failureReason(t: TFunction, failure: unknown): string {
  return t(REASON[failureKind(failure)]);
}

/** Only what happened (lower case, no full stop). */
export function failureCause(t: TFunction, failure: unknown): string {
  return t(CAUSE[failureKind(failure)]);
}

/**
 * For a failure known only by its message: the reason where the words are technical (a
 * status's reason phrase, the browser's or this client's own), else null — the message is the
 * server's own explanation.
 */
export function technicalFailureReason(t: TFunction, message: string): string | null {
  const kind = failureKindOfText(message);
  return kind ? t(REASON[kind]) : null;
}

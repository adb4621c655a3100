/** Request failures in the page's language: never a status's reason phrase or the browser's English. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { FAILURE_KINDS } from '../api/failureKind';
import { i18n } from '../i18n';
import { failureCause, failureReason, technicalFailureReason } from './requestFailure';

const t = () => i18n.t.bind(i18n);

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('request failures in words', () => {
  it('says what happened and what to do, per kind', () => {
    expect(failureReason(t(), new ApiError('/x', 0, 'network', 'Could not reach the server (Failed to fetch)'))).toBe('the server could not be reached — check your connection and try again.');
    expect(failureReason(t(), new ApiError('/x', 500, 'http_500', 'Internal Server Error'))).toBe('the server had a problem — try again in a moment.');
    expect(failureReason(t(), new ApiError('/x', 429, 'http_429', 'slow down'))).toBe('too many tries just now — wait a minute, then try again.');
    expect(failureCause(t(), new ApiError('/x', 0, 'network', 'Could not reach the server (Failed to fetch)'))).toBe('the server could not be reached');
  });

  it('in Russian, with no English in it, for every kind', async () => {
    await i18n.changeLanguage('ru');
    expect(technicalFailureReason(t(), 'Service Unavailable')).toBe('на сервере произошёл сбой — попробуйте ещё раз чуть позже.');
    expect(failureCause(t(), new ApiError('/x', 0, 'network', 'Could not reach the server (Failed to fetch)'))).toBe('нет связи с сервером');
    const statuses = [0, 400, 401, 403, 404, 409, 413, 429, 500, 200];
    const texts = statuses.flatMap((status) => [failureReason(t(), new ApiError('/x', status, 'x', 'Internal Server Error')), failureCause(t(), new ApiError('/x', status, 'x', 'x'))]);
    texts.push(failureReason(t(), new Error('boom')));
    for (const text of texts) expect(text).not.toMatch(/[A-Za-z]/);
    expect(FAILURE_KINDS).toHaveLength(11);
  });

  it('leaves the server\'s own explanation to the caller', () => {
    expect(technicalFailureReason(t(), 'progress could not be stored')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { failureKind, failureKindOfStatus, failureKindOfText } from './failureKind';

const refusal = (status: number, message: string, code = `http_${status}`) => new ApiError('/api/be/user/progress', status, code, message);

describe('failureKind', () => {
  it('reads an ApiError by its status, whatever its words', () => {
    expect(failureKind(new ApiError('/x', 0, 'network', 'Could not reach the server (Failed to fetch)'))).toBe('network');
    expect(failureKind(refusal(500, 'Internal Server Error'))).toBe('server');
    expect(failureKind(refusal(503, 'the database is away'))).toBe('server');
    expect(failureKind(refusal(429, 'slow down'))).toBe('tooMany');
    expect(failureKind(refusal(401, 'sign in first'))).toBe('signedOut');
    expect(failureKind(refusal(403, 'nope'))).toBe('forbidden');
    expect(failureKind(refusal(404, 'gone'))).toBe('notFound');
    expect(failureKind(refusal(409, 'changed'))).toBe('conflict');
    expect(failureKind(refusal(413, 'big'))).toBe('tooLarge');
    expect(failureKind(refusal(400, 'name: too long'))).toBe('refused');
    expect(failureKind(new ApiError('/x', 200, 'bad_json', 'The server sent a response that is not valid JSON'))).toBe('badAnswer');
  });

  it('reads a bare message by the words of this client, the browsers and the status lines', () => {
    expect(failureKindOfText('Could not reach the server (Failed to fetch)')).toBe('network');
    expect(failureKindOfText('Failed to fetch')).toBe('network');
    expect(failureKindOfText('NetworkError when attempting to fetch resource.')).toBe('network');
    expect(failureKindOfText('Load failed')).toBe('network');
    expect(failureKindOfText('Internal Server Error')).toBe('server');
    expect(failureKindOfText('internal server error')).toBe('server');
    expect(failureKindOfText('Service Unavailable')).toBe('server');
    expect(failureKindOfText('HTTP 502')).toBe('server');
    expect(failureKindOfText('Too Many Requests')).toBe('tooMany');
    expect(failureKindOfText('sign in first')).toBe('signedOut');
    expect(failureKindOfText('saving quest progress is a pro feature: upgrade to pro to track completed and hidden quests')).toBe('forbidden');
    expect(failureKindOfText('The response was cut off')).toBe('badAnswer');
  });

  it('leaves the server\'s own explanation to the caller', () => {
    expect(failureKindOfText('progress could not be stored')).toBeNull();
    expect(failureKindOfText('nameEn: must be at most 120 characters')).toBeNull();
    // A reason phrase inside a sentence is the server's sentence.
    expect(failureKindOfText('the upstream said Internal Server Error twice')).toBeNull();
  });

  it('says unknown for what it cannot read, and for statuses outside 2xx-5xx', () => {
    expect(failureKind(new TypeError('boom'))).toBe('unknown');
    expect(failureKind(new TypeError('Failed to fetch'))).toBe('network');
    expect(failureKind(undefined)).toBe('unknown');
    expect(failureKindOfStatus(302)).toBe('unknown');
  });
});

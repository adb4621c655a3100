import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage, setStorageBackend, writeStored } from '../../state/storage';
import { readStoredChoice } from './useStoredChoice';

beforeEach(() => setStorageBackend(memoryStorage()));
afterEach(() => setStorageBackend(null));

describe('a stored panel choice', () => {
  it('reads what was written', () => {
    writeStored('choice', 'true');
    expect(readStoredChoice('choice', false)).toBe(true);
    writeStored('choice', 'false');
    expect(readStoredChoice('choice', true)).toBe(false);
  });

  it('falls back when missing or malformed, never throws', () => {
    expect(readStoredChoice('choice', true)).toBe(true);
    writeStored('choice', '{"on":1}');
    expect(readStoredChoice('choice', false)).toBe(false);
  });
});

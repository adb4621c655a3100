import { describe, expect, it } from 'vitest';
import { hasSignedInHint, SIGNED_IN_COOKIE } from './account';

describe('signed-in hint', () => {
  it('is found only as the exact cookie with value 1', () => {
    expect(hasSignedInHint(`${SIGNED_IN_COOKIE}=1`)).toBe(true);
    expect(hasSignedInHint(`a=b; ${SIGNED_IN_COOKIE}=1; c=d`)).toBe(true);
    expect(hasSignedInHint('')).toBe(false);
    expect(hasSignedInHint(`${SIGNED_IN_COOKIE}=0`)).toBe(false);
    expect(hasSignedInHint(`x${SIGNED_IN_COOKIE}=1`)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { hasSignedInHint, nameProblem, passwordProblem, SIGNED_IN_COOKIE } from './account';

describe('signed-in hint', () => {
  it('is found only as the exact cookie with value 1', () => {
    expect(hasSignedInHint(`${SIGNED_IN_COOKIE}=1`)).toBe(true);
    expect(hasSignedInHint(`a=b; ${SIGNED_IN_COOKIE}=1; c=d`)).toBe(true);
    expect(hasSignedInHint('')).toBe(false);
    expect(hasSignedInHint(`${SIGNED_IN_COOKIE}=0`)).toBe(false);
    expect(hasSignedInHint(`x${SIGNED_IN_COOKIE}=1`)).toBe(false);
  });
});

describe('account name rule', () => {
  it.each([
    ['', 'empty'],
    ['ab', 'length'],
    ['abc', null],
    ['a'.repeat(32), null],
    ['a'.repeat(33), 'length'],
    ['pro_user-2', null],
    ['with space', 'characters'],
    ['ünïcode', 'characters'],
    ['a.b', 'characters'],
    [' abc', 'characters'],
  ])('%j → %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });
});

describe('password rule', () => {
  it.each([
    ['', 'empty'],
    ['1234567', 'length'],
    ['12345678', null],
    ['x'.repeat(200), null],
    ['x'.repeat(201), 'length'],
  ])('%j → %s', (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });
});

describe('password rule with the account name', () => {
  it.each([
    ['carol-2024!', 'carol', 'name'],
    ['xxCAROLxx', 'Carol', 'name'],
    ['carol-2024!', 'bob', null],
    // A name too short to be one (the form while typing) is not looked for.
    ['ab-2024-xx', 'ab', null],
    ['carol-2024!', '', null],
  ])('%j for %j → %s', (password, name, problem) => {
    expect(passwordProblem(password, name)).toBe(problem);
  });
});

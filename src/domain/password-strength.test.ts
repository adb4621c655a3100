import { beforeAll, describe, expect, it } from 'vitest';
import { checkNewPassword, PASSWORD_MIN_SCORE, passwordVerdictText, type PasswordEstimator } from './account';
import { CHECKED_LENGTH, createPasswordEstimator, feedbackText } from './password-strength';

// The real zxcvbn with its dictionaries: the rule as the server applies it.
let estimate: PasswordEstimator;
beforeAll(() => {
  estimate = createPasswordEstimator();
});

describe('new password strength (zxcvbn)', () => {
  it.each([
    ['password', 'carol', 'topTen'],
    ['12345678', 'carol', 'topTen'],
    ['qwertyuiop', 'carol', 'topHundred'],
    ['iloveyou', 'carol', 'topHundred'],
    ['Password1!', 'carol', 'similarToCommon'],
    ['aaaaaaaaaaaa', 'carol', 'simpleRepeat'],
    ['abcdefghijk', 'carol', 'sequences'],
    ['raidmap2024', 'carol', 'userInputs'],
    ['longenough', 'carol', null],
  ])('refuses %j with zxcvbn\'s reason', (password, name, warning) => {
    const verdict = checkNewPassword(password, name, estimate);
    expect(verdict?.problem).toBe('guessable');
    expect(verdict?.strength?.score).toBeLessThan(PASSWORD_MIN_SCORE);
    expect(verdict?.strength?.warning).toBe(warning);
    // The message says why: zxcvbn's warning (when it has one) and a suggestion.
    const text = passwordVerdictText(verdict!);
    expect(text).toMatch(/^password is too easy to guess: /);
    expect(text.length).toBeGreaterThan('password is too easy to guess: '.length + 10);
  });

  it('treats the account name as a guess: refused when the password contains it, and as a user input', () => {
    expect(checkNewPassword('NewUser2026', 'NewUser', estimate)).toEqual({ problem: 'name' });
    expect(checkNewPassword('xnewuserx!', 'NewUser', estimate)).toEqual({ problem: 'name' });
    expect(passwordVerdictText({ problem: 'name' })).toBe('password must not contain the account name');
    // The same password is fine for another account, and the name made it guessable: zxcvbn
    // is told the name, so a name with its letters reversed or leet-spoken still counts.
    expect(checkNewPassword('resUweN-1', 'carol', estimate)).toBeNull();
    const reversed = checkNewPassword('resUweN-1', 'NewUser', estimate);
    expect(reversed?.problem).toBe('guessable');
    expect(reversed?.strength?.warning).toBe('userInputs');
  });

  it.each(['correct horse battery', 'amber-Otter-41', 'kx8#Lp2m', 'sunflower-tide-42', 'Tr0ub4dor&3'])('accepts %j', (password) => {
    expect(checkNewPassword(password, 'carol', estimate)).toBeNull();
  });

  it('keeps the quick rules first (lengths) without running zxcvbn', () => {
    const never: PasswordEstimator = () => {
      throw new Error('not to be called');
    };
    expect(checkNewPassword('', 'carol', never)).toEqual({ problem: 'empty' });
    expect(checkNewPassword('short', 'carol', never)).toEqual({ problem: 'length' });
    expect(checkNewPassword('x'.repeat(201), 'carol', never)).toEqual({ problem: 'length' });
    expect(passwordVerdictText({ problem: 'length' })).toBe('password must be 8 to 200 characters');
  });

  it('judges a long password by its first CHECKED_LENGTH characters, in bounded time', () => {
    const long = 'p4ssw0rd'.repeat(25);
    const started = performance.now();
    const verdict = checkNewPassword(long, 'carol', estimate);
    expect(verdict?.problem).toBe('guessable');
    expect(checkNewPassword(`${'a1!b2@c3#'.repeat(4)}${'x'.repeat(150)}`, 'carol', estimate)).toBeNull();
    expect(CHECKED_LENGTH).toBeGreaterThanOrEqual(32);
    // Not a timing test: a guard against the check growing with the length (seconds at 200).
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('puts feedback keys into English sentences', () => {
    expect(feedbackText('topTen', ['anotherWord'])).toBe('This is a heavily used password. Add more words that are less common.');
    expect(feedbackText(null, [])).toBe('Add more words that are less common.');
    expect(feedbackText('no-such-key', ['capitalization'])).toBe('Capitalize more than the first letter.');
  });
});

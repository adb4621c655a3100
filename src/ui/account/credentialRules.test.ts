import { describe, expect, it } from 'vitest';
import { credentialsSchema } from '../../../server/routes/auth';
import { nameProblem, passwordProblem } from './credentialRules';

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

describe('the client rules agree with the server', () => {
  const names = ['', 'ab', 'abc', 'a'.repeat(32), 'a'.repeat(33), 'pro_user-2', 'with space', 'ünïcode', 'a.b', '-_-', 'x'.repeat(40) + '!'];
  const passwords = ['', '1234567', '12345678', 'x'.repeat(200), 'x'.repeat(201), 'пароль-длинный'];

  it('accepts exactly what the sign-up schema accepts', () => {
    for (const name of names) {
      for (const password of passwords) {
        const client = nameProblem(name) === null && passwordProblem(password) === null;
        expect(credentialsSchema.safeParse({ name, password }).success, `${name} / ${password}`).toBe(client);
      }
    }
  });
});

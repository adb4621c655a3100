import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { i18n, setLanguage } from '../../i18n';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import { accountErrorField, accountErrorText, minutesToWait } from './accountError';

const refusal = (status: number, message: string) => new ApiError('/api/be/auth/login', status, `http_${status}`, message);
const t = i18n.t.bind(i18n);

afterEach(async () => {
  await setLanguage('en');
  setStorageBackend(null);
});

describe('account error text', () => {
  it('reads the wait from the server\'s 429 message', () => {
    expect(minutesToWait('too many failed sign-in attempts; try again in 15 minute(s)')).toBe(15);
    expect(minutesToWait('slow down')).toBeNull();
  });

  it('names the wait in minutes, in English and in Russian plural forms', async () => {
    expect(accountErrorText(t, refusal(429, 'too many failed sign-in attempts; try again in 1 minute(s)'), 'signIn', 'pro')).toBe('too many failed sign-in attempts; try again in 1 minute');
    expect(accountErrorText(t, refusal(429, 'too many failed sign-in attempts; try again in 5 minute(s)'), 'signIn', 'pro')).toBe('too many failed sign-in attempts; try again in 5 minutes');
    expect(accountErrorText(t, refusal(429, 'busy'), 'signIn', 'pro')).toBe('too many failed sign-in attempts; try again later');
    setStorageBackend(memoryStorage());
    await setLanguage('ru');
    expect(accountErrorText(t, refusal(429, 'try again in 2 minute(s)'), 'signIn', 'pro')).toBe('слишком много неудачных попыток входа; попробуйте снова через 2 минуты');
    expect(accountErrorText(t, refusal(429, 'try again in 5 minute(s)'), 'signIn', 'pro')).toBe('слишком много неудачных попыток входа; попробуйте снова через 5 минут');
    expect(accountErrorText(t, refusal(409, 'the name "pro" is taken'), 'signUp', 'pro')).toBe('имя «pro» уже занято');
  });

  it('translates wrong credentials and a taken name only on the form they belong to', () => {
    expect(accountErrorText(t, refusal(401, 'wrong name or password'), 'signIn', 'pro')).toBe('wrong name or password');
    expect(accountErrorText(t, refusal(409, 'the name "pro" is taken'), 'signUp', 'pro')).toBe('the name "pro" is taken');
    expect(accountErrorText(t, refusal(401, 'sign in first'), 'signUp', 'pro')).toBe('The account was not created: your session has ended — sign in again.');
  });

  it('says when the server cannot be reached, and any other failure by its kind, never in the server\'s or the browser\'s English', async () => {
    expect(accountErrorText(t, new ApiError('/api/be/auth/login', 0, 'network', 'Could not reach the server (Failed to fetch)'), 'signIn', 'pro')).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
    expect(accountErrorText(t, refusal(400, 'name must be 3 to 32 characters'), 'signUp', 'ab')).toBe('The name must be 3 to 32 characters long');
    expect(accountErrorText(t, refusal(400, 'name may use only letters, digits, _ and -'), 'signUp', 'a b')).toBe('The name may use only Latin letters, digits, _ and -');
    expect(accountErrorText(t, refusal(400, 'password must be 8 to 200 characters'), 'signUp', 'abc')).toBe('The password must be 8 to 200 characters long');
    expect(accountErrorText(t, refusal(400, 'name is too long'), 'signIn', 'x')).toBe('You are not signed in: the server refused the request — reload the page and try again.');
    expect(accountErrorText(t, refusal(500, 'Internal Server Error'), 'signIn', 'pro')).toBe('You are not signed in: the server had a problem — try again in a moment.');
    expect(accountErrorText(t, refusal(503, 'Service Unavailable'), 'signUp', 'pro')).toBe('The account was not created: the server had a problem — try again in a moment.');
    expect(accountErrorText(t, new TypeError('boom'), 'signIn', 'pro')).toBe('You are not signed in: something went wrong — try again.');
    setStorageBackend(memoryStorage());
    await setLanguage('ru');
    expect(accountErrorText(t, refusal(400, 'name is too long'), 'signIn', 'x')).toBe('Вход не выполнен: сервер отклонил запрос — обновите страницу и попробуйте снова.');
    expect(accountErrorText(t, refusal(500, 'Internal Server Error'), 'signUp', 'pro')).toBe('Аккаунт не создан: на сервере произошёл сбой — попробуйте ещё раз чуть позже.');
  });

  it('names the field a refusal is about, so that changing it takes the refusal away', () => {
    expect(accountErrorField(refusal(409, 'the name "pro" is taken'), 'signUp')).toBe('name');
    expect(accountErrorField(new ApiError('/api/be/auth/register', 400, 'weak_password', '…'), 'signUp')).toBe('password');
    expect(accountErrorField(refusal(400, 'name must be 3 to 32 characters'), 'signUp')).toBe('name');
    expect(accountErrorField(refusal(401, 'wrong name or password'), 'signIn')).toBe('both');
    // A wait or an unreachable server is about no field: it stays until the next try.
    expect(accountErrorField(refusal(429, 'try again in 5 minute(s)'), 'signIn')).toBeNull();
    expect(accountErrorField(new ApiError('/x', 0, 'network', 'Could not reach the server (Failed to fetch)'), 'signUp')).toBeNull();
  });

  it('names the wait for a refused sign-up as a sign-up, not as failed sign-ins', () => {
    expect(accountErrorText(t, refusal(429, 'too many new accounts on the site just now; try again in 3 minute(s)'), 'signUp', 'x')).toBe('too many sign-ups just now; try again in 3 minutes');
    expect(accountErrorText(t, refusal(429, 'busy'), 'signUp', 'x')).toBe('too many sign-ups just now; try again later');
  });

  it('says why a new password was refused, from zxcvbn\'s keys, in the page\'s language', async () => {
    const weak = (body: Record<string, unknown>) =>
      new ApiError('/api/be/auth/register', 400, 'weak_password', 'password is too easy to guess: …', { error: 'weak_password', message: '…', field: 'password', ...body });
    expect(accountErrorText(t, weak({ problem: 'guessable', warning: 'topHundred', suggestions: ['anotherWord', 'capitalization'] }), 'signUp', 'x')).toBe(
      'This password is too easy to guess. This is a frequently used password. Add more words that are less common. Capitalize more than the first letter.',
    );
    expect(accountErrorText(t, weak({ problem: 'guessable', warning: null, suggestions: ['anotherWord'] }), 'signUp', 'x')).toBe('This password is too easy to guess. Add more words that are less common.');
    // Keys this page does not know (a newer server) are left out, never shown raw.
    expect(accountErrorText(t, weak({ problem: 'guessable', warning: 'somethingNew', suggestions: ['toString', 3] }), 'signUp', 'x')).toBe(
      'This password is too easy to guess. Add more words that are less common.',
    );
    expect(accountErrorText(t, weak({ problem: 'name' }), 'signUp', 'x')).toBe('The password must not contain your name');
    setStorageBackend(memoryStorage());
    await setLanguage('ru');
    expect(accountErrorText(t, weak({ problem: 'guessable', warning: 'userInputs', suggestions: ['anotherWord'] }), 'signUp', 'x')).toBe(
      'Этот пароль слишком легко угадать. Не используйте своё имя и название сайта. Добавьте ещё несколько редких слов.',
    );
  });
});

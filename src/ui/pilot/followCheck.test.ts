import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { i18n } from '../../i18n';
import { followCheckOfError, followCheckText, openAnyway } from './followCheck';

const t = i18n.getFixedT('en');
const ru = i18n.getFixedT('ru');
const CODE = 'ZZZZZZZZZZ';
const limited = (body: unknown) => new ApiError('/api/be/pilot/x', 429, 'rate_limited', 'slow down', body);

describe('followCheckOfError', () => {
  it('a 429 is the guessing rule with its wait; offline and 5xx are a check that could not be made', () => {
    expect(followCheckOfError(limited({ limit: 'guesses', retryAfter: 300 }))).toEqual({ kind: 'limited', limited: { limit: 'guesses', retryAfterS: 300 } });
    expect(followCheckOfError(new ApiError('/x', 0, 'network', 'down'))).toEqual({ kind: 'unchecked', status: 0 });
    expect(followCheckOfError(new ApiError('/x', 503, 'http_503', 'busy'))).toEqual({ kind: 'unchecked', status: 503 });
    expect(followCheckOfError(new TypeError('odd'))).toEqual({ kind: 'unchecked', status: 0 });
  });
});

describe('followCheckText', () => {
  it('a live code says nothing; an unknown one names the code with its dash, in both languages', () => {
    expect(followCheckText(t, { kind: 'live' }, CODE)).toBeNull();
    expect(followCheckText(t, { kind: 'unknown' }, CODE)).toBe('No live position has the code ZZZZZ-ZZZZZ: it ended, expired, or was mistyped. Check the code.');
    expect(followCheckText(ru, { kind: 'unknown' }, CODE)).toBe(
      'Нет трансляции позиции с кодом ZZZZZ-ZZZZZ: она закончилась, истекла или код набран с ошибкой. Проверьте код.',
    );
  });

  it('a 429 says which rule and how long, and that the map may be opened now; one that names neither still says to wait', () => {
    const now = 1_000_000;
    expect(followCheckText(t, { kind: 'limited', limited: { limit: 'guesses', retryAfterS: 360 } }, CODE, now, 'en')).toMatch(
      /^Refused for now: too many unknown codes .* Try again in 6 minutes\. Or open the map now: it connects by itself once the wait is over\.$/,
    );
    expect(followCheckText(t, { kind: 'limited', limited: { limit: null, retryAfterS: null } }, CODE, now, 'en')).toBe(
      'The server is not checking codes from your network address for now. Try again in a few minutes. Or open the map now: it connects by itself once the wait is over.',
    );
    expect(followCheckText(ru, { kind: 'limited', limited: { limit: 'guesses', retryAfterS: 360 } }, CODE, now, 'ru')).toMatch(
      /^Пока отказано: .* Попробуйте снова через 6 минут\. Или откройте карту уже сейчас: она подключится сама, когда ожидание закончится\.$/,
    );
  });

  it('a check that could not be made says why and that the map may still be opened', () => {
    expect(followCheckText(t, { kind: 'unchecked', status: 0 }, CODE)).toBe(
      'Could not check the code: the server could not be reached. Press Follow to try again, or open the map anyway: it keeps trying to connect by itself.',
    );
    expect(followCheckText(ru, { kind: 'unchecked', status: 502 }, CODE)).toMatch(/^Не удалось проверить код: сервер ответил ошибкой \(502\)\. Нажмите «Следить»/);
  });
});

describe('openAnyway', () => {
  it('offers the map after a 429 or a check that could not be made, never for a code the server does not know', () => {
    expect(openAnyway({ kind: 'limited', limited: { limit: 'guesses', retryAfterS: 300 } })).toBe(true);
    expect(openAnyway({ kind: 'limited', limited: { limit: null, retryAfterS: null } })).toBe(true);
    expect(openAnyway({ kind: 'unchecked', status: 0 })).toBe(true);
    expect(openAnyway({ kind: 'unknown' })).toBe(false);
    expect(openAnyway({ kind: 'live' })).toBe(false);
  });
});

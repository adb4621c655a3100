import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { folderFailureDetail, folderFailureOf, folderFailureText } from './folderProblem';

const en = i18n.getFixedT('en');
const ru = i18n.getFixedT('ru');
const dom = (name: string, message = 'The request is not allowed by the user agent or the platform in the current context.') => new DOMException(message, name);

describe('folderFailureOf', () => {
  it('names the reason by the browser error\'s name; a closed picker is nothing to say', () => {
    expect(folderFailureOf(dom('NotAllowedError'))).toBe('notAllowed');
    expect(folderFailureOf(dom('NotFoundError'))).toBe('notFound');
    expect(folderFailureOf(dom('SecurityError'))).toBe('security');
    expect(folderFailureOf(dom('AbortError', 'The user aborted a request.'))).toBeNull();
    // Any object with the name will do (another window's DOMException is not this one's).
    expect(folderFailureOf({ name: 'NotFoundError', message: 'x' })).toBe('notFound');
  });

  it('anything else is an unexpected error', () => {
    expect(folderFailureOf(dom('InvalidStateError'))).toBe('other');
    expect(folderFailureOf(new TypeError('Failed to fetch'))).toBe('other');
    expect(folderFailureOf('odd')).toBe('other');
    expect(folderFailureOf(null)).toBe('other');
    expect(folderFailureOf({ name: 'constructor' })).toBe('other');
  });
});

describe('folderFailureText', () => {
  it('says the reason in the page\'s language, with none of the browser\'s English', () => {
    expect(folderFailureText(en, 'notAllowed')).toBe(
      'The folder could not be watched: the browser was not allowed to read it. Choose it again and allow access when the browser asks.',
    );
    expect(folderFailureText(ru, 'notAllowed')).toBe(
      'Не удалось следить за папкой: браузеру не разрешили её читать. Выберите папку снова и разрешите доступ, когда браузер спросит.',
    );
    for (const failure of ['notAllowed', 'notFound', 'security', 'other'] as const) {
      const said = folderFailureText(ru, failure);
      expect(said).toMatch(/^Не удалось следить за папкой: /);
      // No English words (the site's name aside).
      expect(said.replace('raidmap', '')).not.toMatch(/[a-z]{4,}/);
    }
  });
});

describe('folderFailureDetail', () => {
  it('the browser\'s own words, with the name when the message lacks it', () => {
    expect(folderFailureDetail(dom('InvalidStateError', 'An operation that depends on state cached in an interface object was made but the state had changed since it was read from disk.'))).toBe(
      'InvalidStateError: An operation that depends on state cached in an interface object was made but the state had changed since it was read from disk.',
    );
    expect(folderFailureDetail(new Error('NotAllowedError: permission denied'))).toBe('NotAllowedError: permission denied');
    expect(folderFailureDetail(new TypeError('Failed to fetch'))).toBe('TypeError: Failed to fetch');
    expect(folderFailureDetail('odd')).toBe('odd');
    expect(folderFailureDetail(dom('NotSupportedError', ''))).toBe('NotSupportedError');
  });
});

/** The editor's failures in the page's language, the upload route's refusals included. */
import { i18n } from '../../i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { failure } from '../../editor/commands';
import { failureText } from './failureText';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const t = () => i18n.t.bind(i18n);

describe('failureText: the upload route\'s refusals', () => {
  // The server's words (server/routes/admin.ts decodeBase64Image, sent as "base64: …"), as the editor reports them.
  const notImage = failure('uploadFailed', 'base64: the file is not a PNG, JPEG or WebP image');

  it('a file that is not an image (a text file named .png) reads in Russian, not the server\'s English', async () => {
    await i18n.changeLanguage('ru');
    const text = failureText(t(), notImage);
    expect(text).toBe('изображения должны быть файлами PNG, JPEG или WebP.');
    expect(i18n.t('markerEdit.uploadFailed', { message: text })).toBe('Загрузка не удалась, ничего не изменено: изображения должны быть файлами PNG, JPEG или WebP.');
  });

  it('the same in English, and the other refusals of the file', () => {
    expect(failureText(t(), notImage)).toBe('images must be PNG, JPEG or WebP files.');
    expect(failureText(t(), failure('uploadFailed', 'base64: only PNG, JPEG or WebP images are accepted, got text/plain'))).toBe('images must be PNG, JPEG or WebP files.');
    expect(failureText(t(), failure('uploadFailed', 'base64: the image is larger than 5 MB'))).toBe('images must be 5 MB or smaller.');
    expect(failureText(t(), failure('uploadFailed', 'Request body is too large'))).toBe('images must be 5 MB or smaller.');
    expect(failureText(t(), failure('uploadFailed', 'base64 is not valid base64'))).toBe('the file could not be read as an image.');
  });

  it('any other upload failure keeps the server\'s words', () => {
    expect(failureText(t(), failure('uploadFailed', 'disk full'))).toBe('disk full');
  });
});

describe('failureText: technical words', () => {
  it('says a save refused with only a status\'s reason phrase by its kind, in the page\'s language', async () => {
    expect(failureText(t(), failure('saveFailed', 'Internal Server Error'))).toBe('the server had a problem — try again in a moment.');
    expect(failureText(t(), failure('deleteFailed', 'Bad Gateway'))).toBe('the server had a problem — try again in a moment.');
    expect(failureText(t(), failure('uploadFailed', 'Could not reach the server (the upload failed)'))).toBe('the server could not be reached — check your connection and try again.');
    await i18n.changeLanguage('ru');
    expect(failureText(t(), failure('saveFailed', 'Service Unavailable'))).toBe('на сервере произошёл сбой — попробуйте ещё раз чуть позже.');
  });

  it('keeps the server\'s own explanation', () => {
    expect(failureText(t(), failure('saveFailed', 'nameEn: must be at most 120 characters'))).toBe('nameEn: must be at most 120 characters');
  });
});

import { describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../i18n';
import { popupTitle } from './popupTitle';

const unnamed = { name: '', desc: '', name_l10n: {}, desc_l10n: {}, subCategory: 'Marker' };

describe('popupTitle', () => {
  it('names a marker by its name in the UI language, else by its type in that language', async () => {
    await setLanguage('ru');
    expect(popupTitle(i18n.t, 'ru', unnamed)).toBe('Метка');
    expect(popupTitle(i18n.t, 'ru', { ...unnamed, name: 'Office', name_l10n: { ru: 'Офис' } })).toBe('Офис');
    await setLanguage('en');
    expect(popupTitle(i18n.t, 'en', unnamed)).toBe('Marker');
    expect(popupTitle(i18n.t, 'en', { ...unnamed, subCategory: 'Safe' })).toBe('Safe');
  });
});

import '../../i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '../../i18n';
import { fieldLabel, inFormOrder, problemText } from './fieldProblem';
import { counterShown } from './LengthCounter';

const t = i18n.t.bind(i18n);

afterEach(async () => {
  await setLanguage('en');
});

describe('problemText', () => {
  it('names the field by its label and says the rule with its limit, in English', () => {
    expect(problemText(t, { field: 'desc_l10n.ru', kind: 'tooLong', limit: 4000 })).toBe('Description (Russian): at most 4000 characters.');
    expect(problemText(t, { field: 'imgs.1.name', kind: 'tooLong', limit: 200 })).toBe('Name of image 2: at most 200 characters.');
    expect(problemText(t, { field: 'imgs', kind: 'tooMany', limit: 20 })).toBe('Images: at most 20 per marker.');
    expect(problemText(t, { field: 'itemsUid', kind: 'tooMany', limit: 100 })).toBe('Items: at most 100 per marker.');
    expect(problemText(t, { field: 'subCategory', kind: 'unknownCategory' })).toMatch(/^Subcategory: not one of the chosen category’s subcategories/);
    expect(problemText(t, { field: 'name_l10n.en', kind: 'badCharacters' })).toMatch(/^Name \(English\): contains a character that cannot be saved/);
    expect(problemText(t, { field: 'imgs.2.img', kind: 'noFile' })).toBe('Image 3 has no file: upload one, give its URL or remove the image.');
    expect(problemText(t, { field: 'imgs.0.img', kind: 'badUrl' })).toMatch(/^Image 1: its address must be/);
    expect(problemText(t, { field: 'geometry.x', kind: 'invalid' })).toBe('Position: this value cannot be saved.');
  });

  it('says it in Russian on a Russian page, never with a path or the schema\'s English', async () => {
    await setLanguage('ru');
    expect(problemText(t, { field: 'desc_l10n.ru', kind: 'tooLong', limit: 4000 })).toBe('Описание (русский): не длиннее 4000 символов.');
    expect(problemText(t, { field: 'imgs.1.desc', kind: 'tooLong', limit: 1000 })).toBe('Описание изображения 2: не длиннее 1000 символов.');
    expect(problemText(t, { field: 'imgs', kind: 'tooMany', limit: 20 })).toBe('Изображения: не больше 20 на одну метку.');
    expect(problemText(t, { field: 'subCategory', kind: 'unknownCategory' })).toMatch(/^Подкатегория: не входит в выбранную категорию/);
    expect(problemText(t, { field: 'desc', kind: 'badCharacters' })).toMatch(/^Описание, если нет перевода: есть символ, который нельзя сохранить/);
    const line = problemText(t, { field: 'extra', kind: 'invalid' });
    expect(line).toBe('Поле, которого нет в форме: такое значение нельзя сохранить.');
    expect(line).not.toMatch(/extra|must/);
  });
});

describe('fieldLabel', () => {
  it('is the label the form shows, a field it does not show named as such', () => {
    expect(fieldLabel(t, 'name')).toBe('Name when no translation');
    expect(fieldLabel(t, 'imgs.0.img')).toBe('URL of image 1');
    expect(fieldLabel(t, 'itemsUid.4')).toBe('Items');
    expect(fieldLabel(t, 'questUid')).toBe('Quest');
    expect(fieldLabel(t, 'uid')).toBe('A field this form does not show');
  });
});

describe('inFormOrder', () => {
  it('lists the objections top to bottom as the form shows the fields, the page\'s language first', () => {
    const fields = ['imgs.1.name', 'subCategory', 'desc_l10n.en', 'name', 'desc_l10n.ru', 'imgs.0.desc', 'itemsUid', 'extra'].map((field) => ({ field }));
    expect(inFormOrder(fields, 'ru').map((p) => p.field)).toEqual(['name', 'desc_l10n.ru', 'desc_l10n.en', 'subCategory', 'itemsUid', 'imgs.0.desc', 'imgs.1.name', 'extra']);
    expect(inFormOrder(fields, 'en').map((p) => p.field).slice(0, 3)).toEqual(['name', 'desc_l10n.en', 'desc_l10n.ru']);
  });
});

describe('counterShown', () => {
  it('shows the count from 90 % of the bound', () => {
    expect(counterShown(3599, 4000)).toBe(false);
    expect(counterShown(3600, 4000)).toBe(true);
    expect(counterShown(4500, 4000)).toBe(true);
    expect(counterShown(179, 200)).toBe(false);
    expect(counterShown(180, 200)).toBe(true);
  });
});

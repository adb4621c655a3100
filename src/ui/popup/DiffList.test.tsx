/** The change history's and the conflict's lines: images item by item, categories in the page's language. */
import { i18n } from '../../i18n';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DiffList, DiffTable } from './DiffList';
import { historyDiff, markerDiff } from './markerDiff';

const base = {
  name: 'Safe',
  desc: '',
  name_l10n: {},
  desc_l10n: {},
  category: 'Loot',
  subCategory: 'Safe',
  level: 1,
  geometry: { x: 1, y: 2 },
  questUid: null,
  itemsUid: [],
  imgs: [
    { img: '/uploads/markers/m-0-aaa.png?v=1795950559202', name: 'Door', desc: '' },
    { img: '/uploads/markers/m-1-bbb.png?v=1795950559203', name: '', desc: '' },
  ],
};

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const lines = () => screen.getAllByRole('listitem').map((li) => li.textContent);

describe('DiffList (the change history)', () => {
  it('says which image was added, removed or moved, each on a line of its own', () => {
    const shelf = { img: '/uploads/markers/m-2-ccc.png?v=1795950559209', name: 'Shelf', desc: '' };
    render(<DiffList changes={historyDiff(base, { ...base, imgs: [base.imgs[1], base.imgs[0], shelf] })} />);
    expect(lines()).toEqual(['Image added: Shelf', 'Images reordered: Door, m-1-bbb.png → m-1-bbb.png, Door']);
  });

  it('an upload into image 1 reads as its new file, a removal by name', () => {
    const uploaded = { ...base.imgs[0], img: '/uploads/markers/m-0-ddd.png?v=1795950559999' };
    render(<DiffList changes={historyDiff(base, { ...base, imgs: [uploaded] })} />);
    expect(lines()).toEqual(['Image removed: m-1-bbb.png', 'Image 1, new file: m-0-aaa.png → m-0-ddd.png']);
  });

  it('shows categories and subcategories in Russian on a Russian page, and images in Russian', async () => {
    await i18n.changeLanguage('ru');
    render(<DiffList changes={historyDiff({ ...base, category: 'Markers', subCategory: 'Marker' }, { ...base, imgs: [base.imgs[0]] })} />);
    expect(lines()).toEqual(['Категория: Метки → Лут', 'Подкатегория: Метка → Сейф', 'Удалено изображение: m-1-bbb.png']);
  });

  it('an emptied category reads "(empty)" in the page language', async () => {
    await i18n.changeLanguage('ru');
    render(<DiffList changes={historyDiff({ ...base, category: 'Markers' }, null).filter((c) => c.field === 'category')} />);
    expect(lines()).toEqual(['Категория: Метки → (пусто)']);
  });
});

describe('DiffTable (a conflict)', () => {
  it('names categories in the page language too', async () => {
    await i18n.changeLanguage('ru');
    render(<DiffTable changes={markerDiff(base, { ...base, category: 'Markers', subCategory: 'Marker' })} mine="Ваша" theirs="Их" />);
    expect(screen.getByRole('row', { name: /Категория/ })).toHaveTextContent('КатегорияЛутМетки');
  });
});

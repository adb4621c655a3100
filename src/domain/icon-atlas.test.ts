import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES } from './categories';
import { ICON_CELL, ICON_COLUMNS, iconAtlasSize, iconCell, iconIndexOf, iconSpriteStyle } from './icon-atlas';

describe('icon atlas layout', () => {
  it('gives every subcategory its own cell, row by row, inside the atlas', () => {
    const size = iconAtlasSize();
    expect(size.width).toBe(ICON_COLUMNS * ICON_CELL);
    expect(size.rows).toBe(Math.ceil(SUBCATEGORIES.length / ICON_COLUMNS));
    const seen = new Set<string>();
    SUBCATEGORIES.forEach((s, i) => {
      expect(iconIndexOf(s.id)).toBe(i);
      const { x, y } = iconCell(i);
      expect(x + ICON_CELL).toBeLessThanOrEqual(size.width);
      expect(y + ICON_CELL).toBeLessThanOrEqual(size.height);
      seen.add(`${x},${y}`);
    });
    expect(seen.size).toBe(SUBCATEGORIES.length);
    expect(iconCell(ICON_COLUMNS)).toEqual({ x: 0, y: ICON_CELL });
  });

  it('knows no index for a subcategory that is not one', () => {
    expect(iconIndexOf('Nope')).toBe(-1);
    expect(iconIndexOf('safe')).toBe(-1);
  });

  it('has at least one row, even with no icons', () => {
    expect(iconAtlasSize(0)).toEqual({ width: ICON_COLUMNS * ICON_CELL, height: ICON_CELL, columns: ICON_COLUMNS, rows: 1 });
  });

  it('scales the whole atlas so one cell fills a box of the asked size', () => {
    const atlas = iconAtlasSize(40); // 8 × 5 cells: 512 × 320 px
    expect(iconSpriteStyle(0, 64, atlas)).toEqual({ backgroundSize: '512px 320px', backgroundPosition: '0px 0px' });
    // Cell 9 is column 1 of row 1; at 20 px a cell is 20 px and the atlas 160 × 100.
    expect(iconSpriteStyle(9, 20, atlas)).toEqual({ backgroundSize: '160px 100px', backgroundPosition: '-20px -20px' });
  });
});

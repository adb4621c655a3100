import { describe, expect, it } from 'vitest';
import { wantsLabel } from './label-choice';

describe('wantsLabel', () => {
  it('labels the hovered or selected marker in every mode, faint or not', () => {
    for (const mode of ['auto', 'all', 'hover'] as const) {
      expect(wantsLabel(mode, true, false, () => 0.35, 0)).toBe(true);
      expect(wantsLabel(mode, true, true, () => 1, 0)).toBe(true);
    }
  });

  it('in auto mode, labels extractions of the level shown and not those drawn faint', () => {
    expect(wantsLabel('auto', false, true, () => 1, 0)).toBe(true);
    expect(wantsLabel('auto', false, true, () => 0.35, 0)).toBe(false);
    expect(wantsLabel('auto', false, false, () => 1, 0)).toBe(false);
  });

  it('reads the opacity only where it decides', () => {
    const reads: number[] = [];
    const alpha = (index: number) => {
      reads.push(index);
      return 1;
    };
    wantsLabel('auto', false, false, alpha, 0);
    wantsLabel('all', false, true, alpha, 0);
    wantsLabel('hover', false, true, alpha, 0);
    wantsLabel('auto', true, true, alpha, 0);
    expect(reads).toEqual([]);
    wantsLabel('auto', false, true, alpha, 7);
    expect(reads).toEqual([7]);
  });

  it('labels every marker in all mode and none but the special ones in hover mode', () => {
    expect(wantsLabel('all', false, false, () => 0.35, 0)).toBe(true);
    expect(wantsLabel('all', false, false, () => 1, 0)).toBe(true);
    expect(wantsLabel('hover', false, true, () => 1, 0)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { renderModeOf } from './renderMode';

describe('renderModeOf', () => {
  it('draws on the main thread unless asked otherwise', () => {
    expect(renderModeOf('')).toBe('main');
    expect(renderModeOf('?lang=ru')).toBe('main');
    expect(renderModeOf('?render=gpu')).toBe('main');
  });

  it('takes the address first, then the stored choice', () => {
    expect(renderModeOf('?render=worker')).toBe('worker');
    expect(renderModeOf('?render=main', 'worker')).toBe('main');
    expect(renderModeOf('', 'worker')).toBe('worker');
    expect(renderModeOf('?render=nonsense', 'worker')).toBe('worker');
    expect(renderModeOf('', 'nonsense')).toBe('main');
  });
});

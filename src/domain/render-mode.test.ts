import { describe, expect, it } from 'vitest';
import { renderModeOf } from './render-mode';

describe('renderModeOf', () => {
  it('draws in the render worker unless asked otherwise', () => {
    expect(renderModeOf('')).toBe('worker');
    expect(renderModeOf('?lang=ru')).toBe('worker');
    expect(renderModeOf('?render=gpu')).toBe('worker');
  });

  it('takes the address first, then the stored choice', () => {
    expect(renderModeOf('?render=main')).toBe('main');
    expect(renderModeOf('?render=worker', 'main')).toBe('worker');
    expect(renderModeOf('', 'main')).toBe('main');
    expect(renderModeOf('?render=nonsense', 'main')).toBe('main');
    expect(renderModeOf('', 'nonsense')).toBe('worker');
  });
});

/** The state tree's keys with a layout that types no Latin letters (docs/DECISIONS.md "Letter keys on the Russian layout"). */
import { describe, expect, it } from 'vitest';
import { NO_EDITOR, type ToolContext, type ToolEvent, type ToolHost } from './events';
import { RootState } from './root-state';
import { StateNode } from './state-node';

/** A tool that does nothing but be there (its id is what counts for the root's keys). */
function stub(id: string) {
  return (ctx: ToolContext) =>
    new (class extends StateNode {
      readonly id = id;
    })(ctx);
}

function setup() {
  const done: string[] = [];
  const host: ToolHost = { ...NO_EDITOR, undo: () => void done.push('undo'), redo: () => void done.push('redo') };
  const ctx = { host } as unknown as ToolContext;
  const root = new RootState(ctx, ['pan', 'draw', 'move', 'edit'].map(stub));
  root.enter();
  const key = (k: string, code: string | undefined, m: Partial<Record<'ctrlKey' | 'shiftKey' | 'metaKey' | 'altKey', boolean>> = {}) =>
    root.handle({ type: 'key_down', key: k, code, time: 0, altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, ...m } as ToolEvent);
  return { root, done, key };
}

describe('the root\'s letter keys on a layout without Latin letters', () => {
  it('reads m, l and e by the physical key where the Russian layout types ь, д and у', () => {
    const { root, key } = setup();
    key('д', 'KeyL');
    expect(root.currentTool).toBe('draw');
    key('ь', 'KeyM');
    expect(root.currentTool).toBe('move');
    key('у', 'KeyE');
    expect(root.currentTool).toBe('edit');
  });

  it('undoes with Ctrl+я and redoes with Ctrl+Shift+Я or Ctrl+н (the Z and Y keys)', () => {
    const { done, key } = setup();
    key('я', 'KeyZ', { ctrlKey: true });
    key('Я', 'KeyZ', { ctrlKey: true, shiftKey: true });
    key('н', 'KeyY', { metaKey: true });
    expect(done).toEqual(['undo', 'redo', 'redo']);
  });

  it('keeps a Latin layout by letter: AZERTY\'s z (on the W key) undoes, its w does nothing', () => {
    const { done, key } = setup();
    key('z', 'KeyW', { ctrlKey: true });
    key('w', 'KeyZ', { ctrlKey: true });
    expect(done).toEqual(['undo']);
  });
});

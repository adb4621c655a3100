import { describe, expect, it } from 'vitest';
import { PanTool } from './pan-tool';
import { NO_EDITOR, RootState, StateNode, type ToolContext, type ToolEvent, type ToolEventOf, type ToolFactory, type ToolHost } from '../engine/interaction';

/** The state tree with the pan tool (and more), entered, as the engine builds it. */
function tree(ctx: ToolContext, ...more: ToolFactory[]) {
  const root = new RootState(ctx, [(c) => new PanTool(c), ...more]);
  root.enter();
  return Object.assign(root, {
    dispatch: (e: ToolEvent) => void root.handle(e),
    onPathChange: (listener: (path: string) => void) => root.onChange(() => listener(root.path())),
  });
}

const mods = { altKey: false, shiftKey: false, ctrlKey: false, metaKey: false };

function fakeContext(markerAt?: { x: number; y: number; uid: string }, host: ToolHost = NO_EDITOR) {
  const calls: string[] = [];
  let zoomEnabled = true;
  const ctx: ToolContext = {
    host,
    zoom: () => 0.5,
    toScreen: (x, y) => ({ x: x / 2, y: y / 2 }),
    hitShape: () => null,
    hitHandle: () => null,
    markerPosition: () => null,
    setPreview: () => undefined,
    previewMarkerAt: () => undefined,
    panBy: (dx, dy) => void calls.push(`pan ${dx} ${dy}`),
    zoomAt: (f, x, y) => void calls.push(`zoom ${f} ${x} ${y}`),
    isZoomEnabled: () => zoomEnabled,
    hitTest: (x, y) => (markerAt && Math.hypot(x - markerAt.x, y - markerAt.y) < 14 ? markerAt.uid : null),
    setHover: (uid) => void calls.push(`hover ${uid}`),
    setCursor: (c) => void calls.push(`cursor ${c}`),
    toMap: (x, y) => ({ x: x * 2, y: y * 2 }),
    markerClick: (uid) => void calls.push(`markerclick ${uid}`),
    mapClick: (x, y) => void calls.push(`mapclick ${x} ${y}`),
    levelStep: (d) => void calls.push(`level ${d}`),
  };
  return { ctx, calls, setZoomEnabled: (v: boolean) => (zoomEnabled = v) };
}

const ptr = (type: 'pointer_down' | 'pointer_move' | 'pointer_up', screenX: number, screenY: number, time: number): ToolEvent => ({
  type, screenX, screenY, time, button: 0, pointerId: 1, ...mods,
});

describe('pan tool', () => {
  it('starts in pan.idle', () => {
    expect(tree(fakeContext().ctx).path()).toBe('pan.idle');
  });

  it('press → pointing, move past 5 px → dragging with the whole delta, release → idle', () => {
    const { ctx, calls } = fakeContext();
    const tools = tree(ctx);
    const paths: string[] = [];
    tools.onPathChange((p) => paths.push(p));
    tools.dispatch(ptr('pointer_down', 100, 100, 0));
    expect(tools.path()).toBe('pan.pointing');
    tools.dispatch(ptr('pointer_move', 102, 101, 10));
    expect(tools.path()).toBe('pan.pointing');
    expect(calls.filter((c) => c.startsWith('pan'))).toEqual([]);
    tools.dispatch(ptr('pointer_move', 108, 100, 20));
    expect(tools.path()).toBe('pan.dragging');
    tools.dispatch(ptr('pointer_move', 120, 90, 30));
    expect(calls.filter((c) => c.startsWith('pan'))).toEqual(['pan 8 0', 'pan 12 -10']);
    tools.dispatch(ptr('pointer_up', 120, 90, 40));
    expect(tools.path()).toBe('pan.idle');
    expect(calls).not.toContain('mapclick 200 200');
    expect(paths).toEqual(['pan.pointing', 'pan.dragging', 'pan.idle']);
  });

  it('a quick press and release on a marker is a marker click', () => {
    const { ctx, calls } = fakeContext({ x: 50, y: 60, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(ptr('pointer_down', 52, 61, 1000));
    tools.dispatch(ptr('pointer_up', 53, 62, 1299));
    expect(calls).toContain('markerclick m1');
    expect(tools.path()).toBe('pan.idle');
  });

  it('a quick press on empty map is a map click in map pixels', () => {
    const { ctx, calls } = fakeContext({ x: 50, y: 60, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(ptr('pointer_down', 300, 200, 0));
    tools.dispatch(ptr('pointer_up', 300, 200, 100));
    expect(calls).toContain('mapclick 600 400');
  });

  it('a press held 300 ms or longer is not a click', () => {
    const { ctx, calls } = fakeContext({ x: 50, y: 60, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(ptr('pointer_down', 50, 60, 0));
    tools.dispatch(ptr('pointer_up', 50, 60, 300));
    expect(calls.some((c) => c.includes('click'))).toBe(false);
    expect(tools.path()).toBe('pan.idle');
  });

  it('a drag that returns to its start is not a click', () => {
    const { ctx, calls } = fakeContext({ x: 50, y: 60, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(ptr('pointer_down', 50, 60, 0));
    tools.dispatch(ptr('pointer_move', 70, 60, 50));
    tools.dispatch(ptr('pointer_move', 50, 60, 100));
    tools.dispatch(ptr('pointer_up', 50, 60, 120));
    expect(calls.some((c) => c.includes('click'))).toBe(false);
  });

  it('ignores secondary buttons and returns to idle on cancel', () => {
    const { ctx } = fakeContext();
    const tools = tree(ctx);
    tools.dispatch({ ...(ptr('pointer_down', 1, 1, 0) as ToolEventOf<'pointer_down'>), button: 2 });
    expect(tools.path()).toBe('pan.idle');
    tools.dispatch(ptr('pointer_down', 1, 1, 0));
    tools.dispatch(ptr('pointer_move', 40, 1, 5));
    tools.dispatch({ type: 'pointer_cancel', time: 6, pointerId: 1 });
    expect(tools.path()).toBe('pan.idle');
  });

  it('hover over a marker sets the hover and a pointer cursor', () => {
    const { ctx, calls } = fakeContext({ x: 50, y: 60, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(ptr('pointer_move', 51, 59, 0));
    expect(calls.slice(-2)).toEqual(['hover m1', 'cursor pointer']);
    tools.dispatch(ptr('pointer_move', 300, 300, 1));
    expect(calls.slice(-2)).toEqual(['hover null', 'cursor grab']);
  });
});

describe('map-wide defaults', () => {
  const wheel = (deltaY: number, altKey = false): ToolEvent => ({ type: 'wheel', screenX: 10, screenY: 20, time: 0, deltaY, ...mods, altKey });

  it('wheel zooms one step around the cursor', () => {
    const { ctx, calls } = fakeContext();
    const tools = tree(ctx);
    tools.dispatch(wheel(-100));
    tools.dispatch(wheel(100));
    expect(calls).toEqual(['cursor grab', 'zoom 2 10 20', 'zoom 0.5 10 20']);
  });

  it('Alt+wheel steps the level and never zooms', () => {
    const { ctx, calls } = fakeContext();
    const tools = tree(ctx);
    tools.dispatch(wheel(-100, true));
    tools.dispatch(wheel(100, true));
    expect(calls.filter((c) => c.startsWith('zoom'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith('level'))).toEqual(['level 1', 'level -1']);
  });

  it('wheel and double-click do nothing while zoom is disabled', () => {
    const { ctx, calls, setZoomEnabled } = fakeContext();
    const tools = tree(ctx);
    setZoomEnabled(false);
    tools.dispatch(wheel(-100));
    tools.dispatch({ type: 'double_click', screenX: 5, screenY: 5, time: 0, ...mods });
    expect(calls.filter((c) => c.startsWith('zoom'))).toEqual([]);
    setZoomEnabled(true);
    tools.dispatch({ type: 'double_click', screenX: 5, screenY: 6, time: 0, ...mods });
    expect(calls.filter((c) => c.startsWith('zoom'))).toEqual(['zoom 2 5 6']);
  });
});

describe('registering tools', () => {
  class Marking extends StateNode {
    readonly id = 'idle';
    onPointerDown(e: ToolEventOf<'pointer_down'>) {
      this.ctx.mapClick(e.screenX, e.screenY);
    }
  }
  class DrawTool extends StateNode {
    readonly id = 'draw';
    constructor(ctx: ToolContext) {
      super(ctx);
      this.addChildren(new Marking(ctx));
    }
  }
  const key = (k: string, extra: Partial<ToolEventOf<'key_down'>> = {}): ToolEvent => ({ type: 'key_down', key: k, time: 0, ...mods, ...extra });

  it('a new tool slots in, handles its events, and Escape returns to pan', () => {
    const { ctx, calls } = fakeContext();
    const tools = tree(ctx);
    tools.register((c) => new DrawTool(c));
    const paths: string[] = [];
    tools.onPathChange((p) => paths.push(p));
    tools.setTool('draw');
    expect(tools.path()).toBe('draw.idle');
    tools.dispatch(ptr('pointer_down', 7, 8, 0));
    expect(calls).toContain('mapclick 7 8');
    tools.dispatch(key('Escape'));
    expect(tools.path()).toBe('pan.idle');
    expect(paths).toEqual(['draw.idle', 'pan.idle']);
  });

  it('rejects unknown tools and bad ids with clear errors, and needs a pan tool', () => {
    const tools = tree(fakeContext().ctx);
    expect(() => tools.setTool('nope')).toThrow(/unknown tool "nope"/);
    class Bad extends StateNode {
      readonly id = 'Bad Id';
    }
    expect(() => tools.register((c) => new Bad(c))).toThrow(/invalid tool id/);
    expect(tools.path()).toBe('pan.idle');
    expect(() => new RootState(fakeContext().ctx, [])).toThrow(/needs a "pan" tool/);
  });

  it('m, l, e and the tool numbers only act when the admin tools are registered', () => {
    const tools = tree(fakeContext().ctx);
    for (const k of ['m', 'l', 'e', '1', '8']) tools.dispatch(key(k));
    expect(tools.path()).toBe('pan.idle');
  });

  it('unregistering the current tool goes back to pan; pan itself stays', () => {
    const tools = tree(fakeContext().ctx, (c) => new DrawTool(c));
    tools.setTool('draw');
    tools.unregister('draw');
    expect(tools.path()).toBe('pan.idle');
    expect(tools.has('draw')).toBe(false);
    tools.unregister('pan');
    expect(tools.has('pan')).toBe(true);
  });

  it('Ctrl+Z undoes and Ctrl+Shift+Z / Ctrl+Y redo through the host, only with admin tools', () => {
    const done: string[] = [];
    const host: ToolHost = { ...NO_EDITOR, undo: () => void done.push('undo'), redo: () => void done.push('redo') };
    const visitor = tree(fakeContext(undefined, host).ctx);
    visitor.dispatch(key('z', { ctrlKey: true }));
    expect(done).toEqual([]);
    const admin = tree(fakeContext(undefined, host).ctx, (c) => new DrawTool(c));
    admin.dispatch(key('z', { ctrlKey: true }));
    admin.dispatch(key('Z', { ctrlKey: true, shiftKey: true }));
    admin.dispatch(key('y', { metaKey: true }));
    expect(done).toEqual(['undo', 'redo', 'redo']);
  });
});

describe('touch: one finger pans and taps, two fingers pinch (root state)', () => {
  const finger = (type: 'pointer_down' | 'pointer_move' | 'pointer_up', pointerId: number, screenX: number, screenY: number, time: number): ToolEvent => ({
    type, screenX, screenY, time, button: 0, pointerId, pointerType: 'touch', ...mods,
  });

  it('a tap with 7 px of finger wobble still opens the marker (10 px touch slop)', () => {
    const { ctx, calls } = fakeContext({ x: 50, y: 50, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(finger('pointer_down', 5, 50, 50, 0));
    tools.dispatch(finger('pointer_move', 5, 56, 53.6, 50));
    tools.dispatch(finger('pointer_up', 5, 56, 53.6, 120));
    expect(calls).toContain('markerclick m1');
  });

  it('one finger drags the map', () => {
    const { ctx, calls } = fakeContext();
    const tools = tree(ctx);
    tools.dispatch(finger('pointer_down', 5, 100, 100, 0));
    tools.dispatch(finger('pointer_move', 5, 130, 100, 20));
    tools.dispatch(finger('pointer_up', 5, 130, 100, 40));
    expect(calls.filter((c) => c.startsWith('pan'))).toEqual(['pan 30 0']);
    expect(tools.path()).toBe('pan.idle');
  });

  it('spreading two fingers zooms around their midpoint and never becomes a tap', () => {
    const { ctx, calls } = fakeContext({ x: 200, y: 200, uid: 'm1' });
    const tools = tree(ctx);
    tools.dispatch(finger('pointer_down', 1, 90, 100, 0));
    tools.dispatch(finger('pointer_down', 2, 110, 100, 10));
    expect(tools.pinching).toBe(true);
    // Finger 2 moves 20 px right: the distance doubles from 20 to 40, the midpoint moves 10 px.
    tools.dispatch(finger('pointer_move', 2, 130, 100, 30));
    expect(calls.filter((c) => c.startsWith('pan') || c.startsWith('zoom'))).toEqual(['pan 10 0', 'zoom 2 110 100']);
    tools.dispatch(finger('pointer_up', 2, 130, 100, 60));
    expect(tools.pinching).toBe(false);
    // The finger left neither pans nor taps.
    tools.dispatch(finger('pointer_move', 1, 60, 100, 80));
    tools.dispatch(finger('pointer_up', 1, 60, 100, 90));
    expect(calls.filter((c) => c.startsWith('pan'))).toEqual(['pan 10 0']);
    expect(calls.some((c) => c.startsWith('markerclick') || c.startsWith('mapclick'))).toBe(false);
    expect(tools.path()).toBe('pan.idle');
  });

  it('a pinch does not zoom while zoom is disabled (pointer over a popup) but still pans', () => {
    const { ctx, calls, setZoomEnabled } = fakeContext();
    const tools = tree(ctx);
    setZoomEnabled(false);
    tools.dispatch(finger('pointer_down', 1, 90, 100, 0));
    tools.dispatch(finger('pointer_down', 2, 110, 100, 10));
    tools.dispatch(finger('pointer_move', 2, 130, 100, 30));
    expect(calls.some((c) => c.startsWith('zoom'))).toBe(false);
    expect(calls).toContain('pan 10 0');
  });

  it('a mouse is never a finger: two mouse buttons do not pinch', () => {
    const { ctx } = fakeContext();
    const tools = tree(ctx);
    tools.dispatch(ptr('pointer_down', 90, 100, 0));
    tools.dispatch({ type: 'pointer_down', screenX: 110, screenY: 100, time: 10, button: 0, pointerId: 2, pointerType: 'mouse', ...mods });
    expect(tools.pinching).toBe(false);
  });
});

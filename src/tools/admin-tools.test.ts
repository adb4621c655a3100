/**
 * The admin tools in the state tree, driven by pointer and key events against a recording
 * context (map = screen / zoom, as the engine's camera at the origin): paths, shapes, markers.
 */
import { describe, expect, it } from 'vitest';
import { hitHandle, hitShape, shapeHandles, type DrawnShape } from '../domain/shapes';
import { NO_EDITOR, RootState, type ToolContext, type ToolEvent, type ToolHost } from '../engine/interaction';
import { ADMIN_TOOLS, panTool } from './index';

const mods = { altKey: false, shiftKey: false, ctrlKey: false, metaKey: false };
type Mods = Partial<typeof mods>;

function setup({ zoom = 1, markers = [] as { uid: string; x: number; y: number }[], textLabel = undefined as string | undefined } = {}) {
  const log: string[] = [];
  let shapes: DrawnShape[] = [];
  let selected: string | null = null;
  let preview: DrawnShape | null = null;
  const positions = new Map(markers.map((m) => [m.uid, { x: m.x, y: m.y }]));
  let ids = 0;
  const host: ToolHost = {
    ...NO_EDITOR,
    shapes: () => shapes,
    selectedShape: () => selected,
    selectShape: (id, options) => {
      selected = id;
      if (options?.editLabel) log.push(`edit label ${id}`);
    },
    newShapeId: () => `s${++ids}`,
    ...(textLabel === undefined ? {} : { defaultTextLabel: () => textLabel }),
    addShape: (shape) => {
      shapes = [...shapes, shape as DrawnShape];
      log.push(`add ${shape.type}`);
    },
    updateShape: (shape, commit) => {
      shapes = shapes.map((s) => (s.id === shape.id ? (shape as DrawnShape) : s));
      if (commit) log.push(`commit ${shape.id}`);
    },
    removeShape: (id) => {
      shapes = shapes.filter((s) => s.id !== id);
      log.push(`remove ${id}`);
    },
    placeMarker: (x, y) => void log.push(`place ${x} ${y}`),
    moveMarker: (uid, x, y) => void log.push(`move ${uid} ${x} ${y}`),
    copyMarkerTo: (uid, x, y) => void log.push(`copy ${uid} ${x} ${y}`),
    undo: () => void log.push('undo'),
    redo: () => void log.push('redo'),
  };
  const toMap = (x: number, y: number) => ({ x: x / zoom, y: y / zoom });
  const selectedShape = () => shapes.find((s) => s.id === selected) ?? null;
  const ctx: ToolContext = {
    host,
    panBy: (dx, dy) => void log.push(`pan ${dx} ${dy}`),
    zoomAt: (f) => void log.push(`zoom ${f}`),
    isZoomEnabled: () => true,
    zoom: () => zoom,
    toMap,
    toScreen: (x, y) => ({ x: x * zoom, y: y * zoom }),
    hitTest: (sx, sy) => markers.find((m) => Math.hypot(positions.get(m.uid)!.x * zoom - sx, positions.get(m.uid)!.y * zoom - sy) < 12)?.uid ?? null,
    hitShape: (sx, sy) => hitShape(shapes, toMap(sx, sy), 8 / zoom),
    hitHandle: (sx, sy) => {
      const s = selectedShape();
      return s ? hitHandle(shapeHandles(s), toMap(sx, sy), 8 / zoom) : null;
    },
    markerPosition: (uid) => positions.get(uid) ?? null,
    setHover: () => undefined,
    setCursor: () => undefined,
    setPreview: (shape) => void (preview = shape as DrawnShape | null),
    previewMarkerAt: (uid, x, y) => {
      positions.set(uid, { x, y });
      log.push(`preview ${uid} ${x} ${y}`);
    },
    markerClick: (uid) => void log.push(`markerclick ${uid}`),
    mapClick: (x, y) => void log.push(`mapclick ${x} ${y}`),
    levelStep: () => undefined,
  };
  const root = new RootState(ctx, [panTool, ...ADMIN_TOOLS]);
  root.enter();
  let time = 0;
  const send = (e: ToolEvent) => void root.handle(e);
  const ptr = (type: 'pointer_down' | 'pointer_move' | 'pointer_up', x: number, y: number, m: Mods = {}, dt = 20) => {
    time += dt;
    send({ type, screenX: x, screenY: y, time, button: 0, pointerId: 1, ...mods, ...m });
  };
  const drag = (from: [number, number], to: [number, number], m: Mods = {}) => {
    ptr('pointer_down', ...from, m);
    ptr('pointer_move', (from[0] + to[0]) / 2, (from[1] + to[1]) / 2, m);
    ptr('pointer_move', ...to, m);
    ptr('pointer_up', ...to, m);
  };
  const click = (x: number, y: number, m: Mods = {}) => {
    ptr('pointer_down', x, y, m);
    ptr('pointer_up', x, y, m, 50);
  };
  const key = (k: string, m: Mods = {}) => send({ type: 'key_down', key: k, time, ...mods, ...m });
  const dblclick = (x: number, y: number) => send({ type: 'double_click', screenX: x, screenY: y, time, ...mods });
  return { root, log, ptr, drag, click, key, dblclick, shapes: () => shapes, preview: () => preview, positions, select: (id: string) => void (selected = id), selected: () => selected };
}

describe('state transitions and keys (spec §4)', () => {
  it('a tool → draw.<tool>.idle; Escape → pan; m toggles move; l repeats the marker tool; the edit toggle', () => {
    const t = setup();
    expect(t.root.path()).toBe('pan.idle');
    t.root.setTool('draw', { shape: 'rect' });
    expect(t.root.path()).toBe('draw.rect.idle');
    t.key('Escape');
    expect(t.root.path()).toBe('pan.idle');
    t.key('m');
    expect(t.root.path()).toBe('move.idle');
    t.key('M');
    expect(t.root.path()).toBe('pan.idle');
    t.key('l');
    expect(t.root.path()).toBe('draw.marker.idle');
    t.root.toggleEdit();
    expect(t.root.path()).toBe('edit.idle');
    t.root.toggleEdit();
    expect(t.root.path()).toBe('pan.idle');
    t.root.setTool('draw', { shape: 'poly' });
    t.root.toggleEdit();
    expect(t.root.path()).toBe('edit.idle');
  });

  it('number keys pick the draw tools in the panel order, the same number again goes back to pan; e is the edit toggle', () => {
    const t = setup();
    t.key('4');
    expect(t.root.path()).toBe('draw.rect.idle');
    t.key('8');
    expect(t.root.path()).toBe('draw.marker.idle');
    t.key('8');
    expect(t.root.path()).toBe('pan.idle');
    t.key('1');
    expect(t.root.path()).toBe('draw.pen.idle');
    t.key('9');
    expect(t.root.path()).toBe('draw.pen.idle');
    t.key('6', { ctrlKey: true });
    t.key('6', { altKey: true });
    expect(t.root.path()).toBe('draw.pen.idle');
    t.key('e');
    expect(t.root.path()).toBe('edit.idle');
    t.key('E');
    expect(t.root.path()).toBe('pan.idle');
  });

  it('Escape also drops the shape selection, in pan as in the other tools', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(10, 10);
    t.click(60, 60);
    const id = t.shapes()[0].id;
    expect(t.selected()).toBe(id);
    t.key('Escape');
    expect(t.root.path()).toBe('pan.idle');
    expect(t.selected()).toBeNull();
    t.select(id);
    t.key('Escape');
    expect(t.selected()).toBeNull();
    expect(t.shapes().map((s) => s.id)).toEqual([id]);
  });

  it('Ctrl+Z and Ctrl+Shift+Z reach the editor', () => {
    const t = setup();
    t.key('z', { ctrlKey: true });
    t.key('z', { ctrlKey: true, shiftKey: true });
    expect(t.log).toEqual(['undo', 'redo']);
  });
});

describe('drawing', () => {
  for (const type of ['rect', 'line', 'arrow', 'circle'] as const) {
    it(`${type}: a drag draws it (draw.${type}.drawing meanwhile); under 10 px on both axes it is discarded`, () => {
      const t = setup();
      t.root.setTool('draw', { shape: type });
      t.ptr('pointer_down', 100, 100);
      expect(t.root.path()).toBe(`draw.${type}.drawing`);
      t.ptr('pointer_move', 150, 130);
      expect(t.preview()?.type).toBe(type);
      t.ptr('pointer_up', 160, 140);
      expect(t.root.path()).toBe(`draw.${type}.idle`);
      expect(t.shapes().map((s) => s.type)).toEqual([type]);
      expect(t.preview()).toBeNull();
      t.drag([300, 300], [306, 305]);
      expect(t.shapes()).toHaveLength(1);
    });
  }

  it('the map does not pan while drawing', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'rect' });
    t.drag([10, 10], [200, 200]);
    expect(t.log.filter((l) => l.startsWith('pan'))).toEqual([]);
  });

  it('pen collects the dragged points', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'pen' });
    t.drag([0, 0], [40, 40]);
    const [pen] = t.shapes();
    expect(pen.type).toBe('pen');
    expect(pen.geometry.points!.length).toBeGreaterThanOrEqual(2);
  });

  it('poly adds a point per press and stays open; a press on a point drags it; a double-click on a point removes it', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(100, 100);
    expect(t.root.path()).toBe('draw.poly.drawing');
    t.click(200, 100);
    expect(t.shapes().map((s) => s.geometry.points)).toEqual([[[100, 100], [200, 100]]]);
    t.click(200, 200);
    expect(t.shapes()).toHaveLength(1);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [200, 100], [200, 200]]);
    expect(t.root.path()).toBe('draw.poly.drawing');
    t.ptr('pointer_down', 200, 101);
    t.ptr('pointer_move', 250, 120.33333);
    t.ptr('pointer_up', 250, 120.33333);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [250, 120.3333], [200, 200]]);
    t.dblclick(250, 120);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [200, 200]]);
  });

  it('poly: a double-click on empty map keeps the point its first press added (and does not zoom); a later double-click on it removes it', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(100, 100);
    t.click(200, 100);
    // The double-click: two presses at one spot, then the dblclick event.
    t.click(200, 200);
    t.click(200, 200);
    t.dblclick(200, 200);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [200, 100], [200, 200]]);
    expect(t.log.filter((l) => l.startsWith('zoom'))).toEqual([]);
    // A double-click on a point that was there before it began removes it, as ever.
    t.click(200, 200);
    t.click(200, 200);
    t.dblclick(200, 200);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [200, 100]]);
    // Also when the double-click adds the shape's second point (its first press was the first point).
    t.key('Escape');
    t.root.setTool('draw', { shape: 'poly' });
    t.click(400, 400);
    t.click(400, 400);
    t.dblclick(400, 400);
    expect(t.shapes()[1].geometry.points).toEqual([[400, 400], [400, 400]]);
  });

  it('poly: one press then Escape (or another tool) adds no shape (so no undo step), only a preview meanwhile', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(100, 100);
    expect(t.root.path()).toBe('draw.poly.drawing');
    expect(t.shapes()).toEqual([]);
    expect(t.preview()?.geometry.points).toEqual([[100, 100]]);
    t.key('Escape');
    expect(t.root.path()).toBe('pan.idle');
    expect(t.shapes()).toEqual([]);
    expect(t.preview()).toBeNull();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(100, 100);
    t.root.setTool('draw', { shape: 'rect' });
    expect(t.shapes()).toEqual([]);
    expect(t.preview()).toBeNull();
  });

  it('marker: a click places a marker at the map point; a long press places none', () => {
    const t = setup({ zoom: 2 });
    t.root.setTool('draw', { shape: 'marker' });
    t.click(300, 200);
    expect(t.log).toContain('place 150 100');
    t.ptr('pointer_down', 10, 10);
    t.ptr('pointer_up', 10, 10, {}, 400);
    expect(t.log.filter((l) => l.startsWith('place'))).toHaveLength(1);
  });

  it('text: a click places a text shape', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'text' });
    t.click(50, 60);
    expect(t.shapes().map((s) => [s.type, s.geometry.x, s.geometry.y])).toEqual([['text', 50, 60]]);
  });

  it('text: the placed text is selected, not the shape selected before, and its label asked for', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'rect' });
    t.drag([100, 100], [200, 200]);
    const rectId = t.shapes()[0].id;
    t.select(rectId);
    t.root.setTool('draw', { shape: 'text' });
    t.click(50, 60);
    const text = t.shapes().find((s) => s.type === 'text')!;
    expect(text.name).toBe('Text');
    expect(t.selected()).toBe(text.id);
    // One shape added (one undo step), then its label field asked for; nothing else changed.
    expect(t.log).toEqual(['add rect', 'add text', `edit label ${text.id}`]);
    expect(t.root.path()).toBe('draw.text.idle');
  });

  it("text: the new text's label is the host's default label (the page's language), \"Text\" without one", () => {
    const t = setup({ textLabel: 'Текст' });
    t.root.setTool('draw', { shape: 'text' });
    t.click(50, 60);
    expect(t.shapes().map((s) => s.name)).toEqual(['Текст']);
    const plain = setup();
    plain.root.setTool('draw', { shape: 'text' });
    plain.click(50, 60);
    expect(plain.shapes().map((s) => s.name)).toEqual(['Text']);
  });

  it('text: with nothing selected before, the new text is selected too; a drag places nothing', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'text' });
    t.drag([10, 10], [80, 80]);
    expect(t.shapes()).toEqual([]);
    expect(t.selected()).toBeNull();
    t.click(30, 40);
    expect(t.selected()).toBe(t.shapes()[0].id);
    expect(t.log).toEqual(['add text', `edit label ${t.shapes()[0].id}`]);
  });
});

describe('editing', () => {
  function withPoly() {
    const t = setup();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(100, 100);
    t.click(300, 100);
    t.key('Escape');
    t.root.toggleEdit();
    return t;
  }

  it('a click selects a shape; dragging a control point moves it (edit.dragging_handle meanwhile)', () => {
    const t = withPoly();
    t.click(200, 101);
    const id = t.shapes()[0].id;
    t.ptr('pointer_down', 300, 100);
    t.ptr('pointer_move', 320, 140);
    expect(t.root.path()).toBe('edit.dragging_handle');
    t.ptr('pointer_up', 320, 140);
    expect(t.root.path()).toBe('edit.idle');
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [320, 140]]);
    expect(t.log).toContain(`commit ${id}`);
  });

  it("dragging a segment's midpoint inserts a point; a double-click on a point removes it", () => {
    const t = withPoly();
    t.click(150, 100);
    t.ptr('pointer_down', 200, 100);
    t.ptr('pointer_move', 200, 160);
    t.ptr('pointer_up', 200, 160);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [200, 160], [300, 100]]);
    t.dblclick(200, 160);
    expect(t.shapes()[0].geometry.points).toEqual([[100, 100], [300, 100]]);
  });

  it('a double-click away from handles zooms as usual; Delete removes the selected shape', () => {
    const t = withPoly();
    t.dblclick(600, 600);
    expect(t.log).toContain('zoom 2');
    t.click(200, 100);
    t.key('Delete');
    expect(t.shapes()).toEqual([]);
  });

  it('Escape mid-drag of a handle puts the shape back and commits nothing, as Ctrl+Z and a move drag do', () => {
    const t = withPoly();
    t.click(200, 101);
    const before = JSON.stringify(t.shapes());
    t.ptr('pointer_down', 300, 100);
    t.ptr('pointer_move', 320, 140);
    expect(t.root.path()).toBe('edit.dragging_handle');
    t.key('Escape');
    t.ptr('pointer_up', 320, 140);
    expect(t.root.path()).toBe('pan.idle');
    expect(JSON.stringify(t.shapes())).toBe(before);
    expect(t.log.filter((l) => l.startsWith('commit'))).toEqual([]);
  });

  it('a drag on empty map pans in edit state', () => {
    const t = withPoly();
    t.drag([500, 500], [540, 500]);
    expect(t.root.path()).toBe('edit.idle');
    expect(t.log.some((l) => l.startsWith('pan'))).toBe(true);
  });
});

describe('a text shape is grabbed anywhere on its label', () => {
  // The probe's label: its word "exit" lies ~60 CSS px right of the text's centre.
  function withLongText(zoom = 1) {
    const t = setup({ zoom, textLabel: 'A much longer label for the exit' });
    t.root.setTool('draw', { shape: 'text' });
    t.click(400, 300);
    const id = t.shapes()[0].id;
    t.key('Escape');
    return { t, id };
  }

  it('edit: a click on "exit" selects the text', () => {
    for (const zoom of [1, 2.5]) {
      const { t, id } = withLongText(zoom);
      t.root.toggleEdit();
      expect(t.selected()).toBeNull();
      t.click(460, 302);
      expect(t.selected()).toBe(id);
    }
  });

  it('move: a drag from "exit" moves the text, the map does not pan', () => {
    const { t, id } = withLongText();
    t.key('m');
    t.drag([460, 302], [500, 352]);
    expect(t.log.filter((l) => l.startsWith('pan'))).toEqual([]);
    expect(t.shapes()[0].geometry).toEqual({ x: 440, y: 350 });
    expect(t.log).toContain(`commit ${id}`);
  });
});

describe('moving', () => {
  it('a dragged marker follows the pointer and is saved where it is released', () => {
    const t = setup({ markers: [{ uid: 'm1', x: 100, y: 100 }] });
    t.key('m');
    t.ptr('pointer_down', 100, 100);
    t.ptr('pointer_move', 130, 100);
    expect(t.root.path()).toBe('move.dragging');
    t.ptr('pointer_move', 150, 120);
    t.ptr('pointer_up', 150, 120);
    expect(t.log.at(-1)).toBe('move m1 150 120');
    expect(t.root.path()).toBe('move.idle');
  });

  it('with Shift the movement is divided by 10', () => {
    const t = setup({ markers: [{ uid: 'm1', x: 100, y: 100 }] });
    t.key('m');
    t.ptr('pointer_down', 100, 100, { shiftKey: true });
    t.ptr('pointer_move', 200, 100, { shiftKey: true });
    t.ptr('pointer_move', 200, 150, { shiftKey: true });
    t.ptr('pointer_up', 200, 150, { shiftKey: true });
    expect(t.log.at(-1)).toBe('move m1 110 105');
  });

  it('Alt-drag places a copy and leaves the marker', () => {
    const t = setup({ markers: [{ uid: 'm1', x: 100, y: 100 }] });
    t.key('m');
    t.drag([100, 100], [180, 140], { altKey: true });
    expect(t.log.at(-1)).toBe('copy m1 180 140');
    expect(t.positions.get('m1')).toEqual({ x: 100, y: 100 });
  });

  it('Escape mid-drag puts the marker back and saves nothing', () => {
    const t = setup({ markers: [{ uid: 'm1', x: 100, y: 100 }] });
    t.key('m');
    t.ptr('pointer_down', 100, 100);
    t.ptr('pointer_move', 160, 100);
    t.key('Escape');
    expect(t.root.path()).toBe('pan.idle');
    expect(t.positions.get('m1')).toEqual({ x: 100, y: 100 });
    expect(t.log.some((l) => l.startsWith('move'))).toBe(false);
  });

  it('a drawn shape is dragged and committed once', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'rect' });
    t.drag([100, 100], [200, 200]);
    t.key('m');
    t.drag([100, 150], [130, 170]);
    const rect = t.shapes()[0];
    expect([rect.geometry.x, rect.geometry.y, rect.geometry.x1, rect.geometry.y1]).toEqual([130, 120, 230, 220]);
    expect(t.log.filter((l) => l.startsWith('commit'))).toHaveLength(1);
  });
});

describe('Ctrl+Z with a gesture in progress cancels the gesture and undoes nothing else', () => {
  for (const shape of ['line', 'rect', 'pen'] as const) {
    it(`${shape}: Ctrl+Z mid-drag drops the shape being drawn (the tool stays); the release adds nothing`, () => {
      const t = setup();
      t.root.setTool('draw', { shape: 'rect' });
      t.drag([0, 0], [100, 100]);
      t.root.setTool('draw', { shape });
      t.ptr('pointer_down', 200, 200);
      t.ptr('pointer_move', 300, 260);
      expect(t.root.path()).toBe(`draw.${shape}.drawing`);
      t.key('z', { ctrlKey: true });
      expect(t.root.path()).toBe(`draw.${shape}.idle`);
      expect(t.preview()).toBeNull();
      t.ptr('pointer_move', 320, 280);
      t.ptr('pointer_up', 320, 280);
      expect(t.log.filter((l) => l === 'undo' || l === 'redo')).toEqual([]);
      expect(t.shapes().map((s) => s.type)).toEqual(['rect']);
      // Afterwards Ctrl+Z undoes as ever.
      t.key('z', { ctrlKey: true });
      expect(t.log.at(-1)).toBe('undo');
    });
  }

  it('⌘Z, Ctrl+Shift+Z and Ctrl+Y mid-drag cancel too', () => {
    for (const m of [{ metaKey: true }, { ctrlKey: true, shiftKey: true }] as const) {
      const t = setup();
      t.root.setTool('draw', { shape: 'line' });
      t.ptr('pointer_down', 0, 0);
      t.ptr('pointer_move', 100, 100);
      t.key(m.metaKey ? 'z' : 'Z', m);
      t.ptr('pointer_up', 100, 100);
      expect([t.shapes(), t.log.filter((l) => l === 'undo' || l === 'redo')]).toEqual([[], []]);
    }
    const t = setup();
    t.root.setTool('draw', { shape: 'line' });
    t.ptr('pointer_down', 0, 0);
    t.ptr('pointer_move', 100, 100);
    t.key('y', { ctrlKey: true });
    t.ptr('pointer_up', 100, 100);
    expect([t.shapes(), t.log]).toEqual([[], []]);
  });

  it("poly: Ctrl+Z after the first press drops that preview only; once the shape exists it undoes as ever", () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'poly' });
    t.click(100, 100);
    t.key('z', { ctrlKey: true });
    expect(t.root.path()).toBe('draw.poly.idle');
    expect(t.preview()).toBeNull();
    expect(t.log).toEqual([]);
    t.click(100, 100);
    t.click(200, 100);
    t.key('z', { ctrlKey: true });
    expect(t.log.at(-1)).toBe('undo');
  });

  it('move: Ctrl+Z mid-drag puts the marker back, saves nothing and undoes nothing', () => {
    const t = setup({ markers: [{ uid: 'm1', x: 100, y: 100 }] });
    t.key('m');
    t.ptr('pointer_down', 100, 100);
    t.ptr('pointer_move', 160, 100);
    t.key('z', { ctrlKey: true });
    expect(t.root.path()).toBe('move.idle');
    t.ptr('pointer_up', 160, 100);
    expect(t.positions.get('m1')).toEqual({ x: 100, y: 100 });
    expect(t.log.some((l) => l.startsWith('move') || l === 'undo')).toBe(false);
  });

  it('edit: Ctrl+Z mid-drag of a handle puts the shape back, commits nothing and undoes nothing', () => {
    const t = setup();
    t.root.setTool('draw', { shape: 'line' });
    t.drag([100, 100], [300, 100]);
    t.key('Escape');
    t.root.toggleEdit();
    t.click(200, 101);
    const before = JSON.stringify(t.shapes());
    t.ptr('pointer_down', 300, 100);
    t.ptr('pointer_move', 320, 140);
    expect(t.root.path()).toBe('edit.dragging_handle');
    t.key('z', { ctrlKey: true });
    t.ptr('pointer_up', 320, 140);
    expect(t.root.path()).toBe('edit.idle');
    expect(JSON.stringify(t.shapes())).toBe(before);
    expect(t.log.filter((l) => l.startsWith('commit') || l === 'undo')).toEqual([]);
  });
});

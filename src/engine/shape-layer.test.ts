// @vitest-environment jsdom
/**
 * ShapeLayer: a pan moves the container without rebuilding the Graphics; a zoom or a content
 * change rebuilds; strokes keep their screen width; text shapes keep one Text each.
 */
import { Graphics, Text } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { finishShape, dragShape, hitShape, shapeHandles, startShape, type DrawnShape } from '../domain/shapes';
import { textLabelSize } from '../domain/text-label';
import { SHAPE_STROKE_PX, ShapeLayer } from './shape-layer';

/** A camera: the map point (cx, cy) at the centre of an 800 × 600 viewport. */
const camera = (cx: number, cy: number, zoom: number) => ({
  toScreen: (x: number, y: number) => ({ x: (x - cx) * zoom + 400, y: (y - cy) * zoom + 300 }),
  zoom,
});

function rect(id: string, x: number, y: number, x1: number, y1: number): DrawnShape {
  return { ...(finishShape(dragShape(startShape('rect', id, { x, y }), { x: x1, y: y1 }), 50, 50) as DrawnShape) };
}

const graphics = (layer: ShapeLayer, label: string) => layer.container.getChildByLabel(label, true) as Graphics;

describe('ShapeLayer', () => {
  it('moves the container on a pan and rebuilds only on a zoom or a change', () => {
    const layer = new ShapeLayer();
    layer.setShapes([rect('a', 100, 100, 200, 150)]);
    let c = camera(150, 125, 2);
    expect(layer.update(c.toScreen, c.zoom)).toBe(true);
    expect(layer.container.position).toMatchObject(c.toScreen(0, 0));
    expect(layer.update(c.toScreen, c.zoom)).toBe(false);

    c = camera(170, 90, 2);
    expect(layer.update(c.toScreen, c.zoom)).toBe(false);
    expect(layer.container.position).toMatchObject(c.toScreen(0, 0));

    c = camera(170, 90, 3);
    expect(layer.update(c.toScreen, c.zoom)).toBe(true);
    layer.setSelected('a');
    expect(layer.update(c.toScreen, c.zoom)).toBe(true);
    layer.setSelected('a');
    expect(layer.update(c.toScreen, c.zoom)).toBe(false);
    expect(layer.redraws).toBe(3);
    layer.dispose();
  });

  it('draws a rect at its screen place with a constant stroke width', () => {
    const layer = new ShapeLayer();
    layer.setShapes([rect('a', 100, 100, 200, 150)]);
    const c = camera(0, 0, 2);
    layer.update(c.toScreen, c.zoom);
    const b = graphics(layer, 'shape-strokes').bounds;
    // Layout = map × zoom (the container sits at toScreen(0, 0)), grown by half the stroke.
    const half = SHAPE_STROKE_PX / 2;
    expect([b.minX, b.minY, b.maxX, b.maxY]).toEqual([200 - half, 200 - half, 400 + half, 300 + half]);
    layer.dispose();
  });

  it('draws the halo of the selected shape, the preview and the handles', () => {
    const layer = new ShapeLayer();
    const shape = rect('a', 0, 0, 10, 10);
    layer.setShapes([shape]);
    const c = camera(0, 0, 1);
    layer.update(c.toScreen, c.zoom);
    expect(graphics(layer, 'shape-halo').context.instructions).toHaveLength(0);
    layer.setSelected('a');
    layer.setHandles(shapeHandles(shape), 0);
    layer.setPreview(dragShape(startShape('arrow', 'p', { x: 0, y: 0 }), { x: 50, y: 0 }));
    layer.update(c.toScreen, c.zoom);
    expect(graphics(layer, 'shape-halo').context.instructions.length).toBeGreaterThan(0);
    expect(graphics(layer, 'shape-handles').context.instructions.length).toBeGreaterThan(0);
    const preview = graphics(layer, 'shape-preview').bounds;
    expect(preview.maxX).toBeGreaterThanOrEqual(50);
    layer.setPreview(null);
    layer.setHandles([], -1);
    layer.update(c.toScreen, c.zoom);
    expect(graphics(layer, 'shape-preview').context.instructions).toHaveLength(0);
    expect(graphics(layer, 'shape-handles').context.instructions).toHaveLength(0);
    layer.dispose();
  });

  it('keeps one Text per text shape and drops those of removed shapes', () => {
    const layer = new ShapeLayer();
    const text = { ...startShape('text', 't1', { x: 10, y: 10 }), name: 'Boss' };
    layer.setShapes([text, rect('a', 0, 0, 10, 10)]);
    const c = camera(0, 0, 1);
    layer.update(c.toScreen, c.zoom);
    const texts = () => layer.container.getChildrenByLabel(/.*/, true).filter((o) => o instanceof Text) as Text[];
    expect(texts().map((t) => t.text)).toEqual(['Boss']);
    const first = texts()[0];
    layer.setShapes([{ ...text, name: 'Boss spawn' }]);
    layer.update(c.toScreen, c.zoom);
    expect(texts()).toEqual([first]);
    expect(first.text).toBe('Boss spawn');
    layer.setShapes([]);
    layer.update(c.toScreen, c.zoom);
    expect(texts()).toHaveLength(0);
    expect(layer.container.visible).toBe(false);
    layer.dispose();
  });

  it("frames a selected text around its whole label, at the label's screen size at any zoom, where its hit area is", () => {
    const label = 'A much longer label for the exit';
    const text = { ...startShape('text', 't1', { x: 100, y: 50 }), name: label };
    const size = textLabelSize(label);
    expect(size.width).toBeGreaterThan(190);
    for (const zoom of [0.5, 1, 3]) {
      const layer = new ShapeLayer();
      layer.setShapes([text]);
      layer.setSelected('t1');
      const c = camera(100, 50, zoom);
      layer.update(c.toScreen, c.zoom);
      const b = graphics(layer, 'shape-halo').bounds;
      const centre = { x: c.toScreen(100, 50).x - layer.container.x, y: c.toScreen(100, 50).y - layer.container.y };
      // Around the label (not a fixed small box at its centre), centred on the text's point.
      expect(b.minX).toBeLessThan(centre.x - size.width / 2);
      expect(b.maxX).toBeGreaterThan(centre.x + size.width / 2);
      expect(b.minY).toBeLessThan(centre.y - size.height / 2);
      expect(b.maxY).toBeGreaterThan(centre.y + size.height / 2);
      expect(b.maxX - b.minX).toBeLessThan(size.width + 20);
      expect((b.minX + b.maxX) / 2).toBeCloseTo(centre.x, 5);
      // The label's ends, just inside the frame, take the pointer (the engine's 8 px tolerance).
      const toMap = (sx: number) => ({ x: 100 + (sx - centre.x) / zoom, y: 50 });
      expect(hitShape([text], toMap(b.maxX - 8), 8 / zoom)).toBe('t1');
      expect(hitShape([text], toMap(b.minX + 8), 8 / zoom)).toBe('t1');
      layer.dispose();
    }
  });

  it('draws every shape type without throwing, degenerate ones included', () => {
    const layer = new ShapeLayer();
    const at = { x: 5, y: 5 };
    const shapes = (['pen', 'line', 'arrow', 'rect', 'circle', 'poly', 'text', 'marker'] as const).flatMap((type) => [
      startShape(type, `${type}-0`, at),
      dragShape(startShape(type, `${type}-1`, at), { x: 40, y: 30 }),
    ]);
    layer.setShapes(shapes);
    layer.setSelected('arrow-1');
    const c = camera(0, 0, 0.5);
    expect(() => layer.update(c.toScreen, c.zoom)).not.toThrow();
    layer.dispose();
  });
});

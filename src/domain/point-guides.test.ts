import { describe, expect, it } from 'vitest';
import { MAPS } from './maps';
import { POINT_LABEL_GAP_PX, pointGuideShapes, pointLabelCentre, pointLabelWidth } from './point-guides';
import { pointLabel, pointsToSvg } from './points';

const list = [
  { x: 100, y: 200 },
  { x: 300, y: 400 },
];
const transform = MAPS.customs.transform;

describe('pointLabelWidth', () => {
  it('counts digits wider than the point, comma, space and minus, and grows with the label', () => {
    expect(pointLabelWidth('1234.5678, -987.6543')).toBeCloseTo((15 * 0.57 + 5 * 0.3) * 14 + 3, 6);
    expect(pointLabelWidth('88')).toBeGreaterThan(pointLabelWidth('8.'));
  });
});

describe('pointGuideShapes', () => {
  it('draws nothing while the points are hidden or there are none', () => {
    expect(pointGuideShapes(list, { shown: false, coordsShown: true, transform, zoom: 1 })).toEqual([]);
    expect(pointGuideShapes([], { shown: true, coordsShown: true, transform, zoom: 1 })).toEqual([]);
  });

  it('draws the path and a dot at each point, as the SVG does (a lone point: a dot, not a pin)', () => {
    const guides = pointGuideShapes(list, { shown: true, coordsShown: false, transform, zoom: 1 });
    expect(guides.map((g) => [g.id, g.type])).toEqual([
      ['points:path', 'pen'],
      ['points:dot:0', 'poly'],
      ['points:dot:1', 'poly'],
    ]);
    expect(guides[0].geometry.points).toEqual([[100, 200], [300, 400]]);
    expect(guides[2].geometry.points).toEqual([[300, 400]]);
    const lone = pointGuideShapes([list[0]], { shown: true, coordsShown: false, zoom: 1 });
    expect(lone).toEqual([{ id: 'points:dot:0', type: 'poly', geometry: { x: 100, y: 200, points: [[100, 200]] }, name: '' }]);
  });

  it('puts each label up and to the right of its point, never over it, as the SVG does', () => {
    const svg = pointsToSvg(list, { width: 4400, height: 3200, showCoords: true, transform });
    // The SVG: the text starts right of the dot, its baseline above it.
    const text = /<text x="([\d.]+)" y="([\d.]+)">/.exec(svg)!;
    expect(Number(text[1])).toBeGreaterThan(list[0].x);
    expect(Number(text[2])).toBeLessThan(list[0].y);
    for (const zoom of [0.25, 1, 4]) {
      const labels = pointGuideShapes(list, { shown: true, coordsShown: true, transform, zoom }).filter((g) => g.type === 'text');
      expect(labels.map((l) => l.name)).toEqual(list.map((p) => pointLabel(p, transform)));
      labels.forEach((label, i) => {
        const p = list[i];
        // In screen px from the point: the label's centre is right of and above it, its left end
        // (centre less half its estimated width) the gap right of the point.
        const dx = (label.geometry.x - p.x) * zoom;
        const dy = (label.geometry.y - p.y) * zoom;
        expect(dx - pointLabelWidth(label.name) / 2).toBeCloseTo(POINT_LABEL_GAP_PX, 6);
        expect(dy).toBeCloseTo(-(POINT_LABEL_GAP_PX + 7), 6);
      });
    }
  });

  it('keeps the label beside its point in screen pixels whatever the zoom (further in map pixels zoomed out)', () => {
    const near = pointLabelCentre(list[0], '1, 2', 4);
    const far = pointLabelCentre(list[0], '1, 2', 0.25);
    expect(far.x - list[0].x).toBeCloseTo((near.x - list[0].x) * 16, 6);
    // A broken zoom reads as 1, never as an offset to infinity.
    expect(Number.isFinite(pointLabelCentre(list[0], '1, 2', 0).x)).toBe(true);
  });
});

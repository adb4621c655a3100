/** map.json's shape mistakes named by their inner field, with the forms a union allows (readMapArt). */
import { describe, expect, it } from 'vitest';
import { MapArtError } from '../../src/domain/map-art';
import { MAPS } from '../../src/domain/maps';
import { readMapArt } from './map-art-issues';

const file = '/srv/assets/maps/customs/map.json';
function refusal(text: string): string {
  try {
    readMapArt(MAPS.customs, text, file);
  } catch (err) {
    expect(err).toBeInstanceOf(MapArtError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${text}`);
}

const PLACEMENT = 'placement: expected one of {"bounds": [[x, z], [x, z]]} (game metres), {"rect": {"x": …, "y": …, "width": …, "height": …}} (map pixels), {"fill": true}';

describe('readMapArt', () => {
  it("names a layer's bad value and the forms it may take", () => {
    expect(refusal('{"layers": {"main": 5}}')).toBe(`${file}: layers.main: expected one of a group name ("Ground_Level") or a list of them (["Ground_Level", "Floor_1"]), got 5`);
    expect(refusal('{"layers": {"main": []}}')).toBe(`${file}: layers.main: expected at least 1 item, got []`);
  });

  it('names the inner field of a placement after its allowed forms', () => {
    expect(refusal('{"placement": {"rect": {"x": 0, "y": 0, "width": "100", "height": 50}}}')).toBe(`${file}: ${PLACEMENT}; placement.rect.width: expected a number, got "100"`);
    expect(refusal('{"placement": {"fill": false}}')).toBe(`${file}: ${PLACEMENT}; placement.fill: expected true, got false`);
    expect(refusal('{"placement": {"fill": "yes"}}')).toBe(`${file}: ${PLACEMENT}; placement.fill: expected true, got "yes"`);
    expect(refusal('{"placement": {"rect": {"x": 0, "width": 1, "height": 5}}}')).toBe(`${file}: ${PLACEMENT}; placement.rect.y: missing (expected a number)`);
    expect(refusal('{"placement": {"bounds": [[1, 2], [3]]}}')).toBe(`${file}: ${PLACEMENT}; placement.bounds.1: expected at least 2 items, got [3]`);
  });

  it('lists the forms when the placement fits none', () => {
    expect(refusal('{"placement": {}}')).toBe(`${file}: ${PLACEMENT}, got {}`);
    expect(refusal('{"placement": 5}')).toBe(`${file}: ${PLACEMENT}, got 5`);
  });

  it('names unknown fields with the allowed ones, and plain type mistakes', () => {
    expect(refusal('{"placment": {"fill": true}}')).toBe(`${file}: (top level): unknown field "placment" (its fields: comment, layers, exclude, placement)`);
    expect(refusal('{"exclude": "Legend"}')).toBe(`${file}: exclude: expected a list, got "Legend"`);
    expect(refusal('{"placement": {"rect": {"x": 0, "y": 0, "width": -1, "height": 5}}}')).toBe(`${file}: placement.rect.width: expected a number above 0, got -1`);
  });

  it("leaves what parseMapArt checks past the shape to it, and reads a good file as it does", () => {
    expect(refusal('{"placement": ')).toMatch(/map\.json: not valid JSON/);
    expect(refusal('{"layers": {"attic": "A"}}')).toContain('layers.attic: map "customs" has no layer "attic"');
    expect(readMapArt(MAPS.customs, '{"placement": {"fill": true}}', file).placement).toEqual({ fill: true });
    expect(readMapArt(MAPS.customs, undefined, file).exclude).toEqual([]);
  });
});

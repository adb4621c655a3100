/**
 * Test drawings built the way the community map drawings are (Inkscape / Illustrator
 * files): floor groups named `Ground_Level`, `Second_Floor`, `Underground_Level`… by id,
 * `inkscape:label` or `data-name` (one in lower case), nested in a wrapper group, a
 * `<style>` block with classes, a viewBox in its own units and aspect ratio, a floor hidden
 * in the editor (display:none), group transforms, `<use>` of `<defs>`, content past the
 * viewBox, and groups that are no floor (labels, a legend, a frame).
 *
 * Each floor paints its own colour over a known part of the drawing, and a dot of pure
 * colour at a game point (placed through the placement's inverse): a test finds the dot's
 * pixels in a rendering and compares them with gameToMap of the point. Generated here: no
 * third-party art is shipped or used.
 */
import { COMMUNITY_LAYERS, gameToDrawing, placementRect, type MapRect, type Placement } from '../../src/domain/map-art';
import type { MapDefinition } from '../../src/domain/maps';
import { gameToMap, mapToGame, type GamePoint, type MapPoint } from '../../src/domain/transform';

export interface CommunityDrawingOptions {
  map: MapDefinition;
  /** The drawing's viewBox (user units); default 0 0 1062 535 (another aspect than any map). */
  viewBox?: { x: number; y: number; width: number; height: number };
  /** Where the drawing is meant to sit (default: the reference bounds of the map). */
  placement?: Placement;
  /** Group name per layer id (default: the first community name of the layer). */
  names?: Record<string, string>;
  /** Layer ids whose group is hidden in the editor (display:none); default the underground one. */
  hidden?: string[];
  /** A game point per layer id to mark with a dot (default: near the middle of the placement). */
  dots?: Record<string, GamePoint>;
}

export interface CommunityDrawing {
  svg: string;
  /** Where the drawing lands on the map (map px) under `placement`. */
  rect: MapRect;
  viewBox: { x: number; y: number; width: number; height: number };
  /** Group name used per layer. */
  names: Record<string, string>;
  /** Per layer: its fill colour, its dot's colour, game point, map point, drawing point. */
  floors: Record<string, { fill: [number, number, number]; dot: [number, number, number]; game: GamePoint; map: MapPoint; drawing: { x: number; y: number } }>;
}

const FILLS: [number, number, number][] = [[40, 160, 60], [200, 120, 40], [60, 90, 200], [150, 60, 170], [200, 200, 60], [60, 190, 190], [120, 120, 120]];
const DOTS: [number, number, number][] = [[255, 0, 255], [255, 0, 0], [0, 255, 255], [0, 0, 255], [255, 255, 0], [0, 255, 0], [255, 255, 255]];
const hex = (c: [number, number, number]) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const n = (v: number) => +v.toFixed(3);

/** A drawing of `map` with one group per floor, named the community's way. */
export function communityDrawing(opts: CommunityDrawingOptions): CommunityDrawing {
  const { map } = opts;
  const vb = opts.viewBox ?? { x: 0, y: 0, width: 1062, height: 535 };
  const placement = opts.placement ?? { bounds: COMMUNITY_LAYERS[map.id].bounds! };
  const rect = placementRect(map, vb, placement).rect;
  const under = map.layers.find((l) => l !== 'main' && !/^level\d+$/.test(l));
  const hidden = new Set(opts.hidden ?? (under ? [under] : []));
  const names: Record<string, string> = {};
  const floors: CommunityDrawing['floors'] = {};
  // The game point under the middle of the drawing; the dots are spread around it.
  const centre = mapToGame(map.transform, { mapX: rect.x + rect.width / 2, mapY: rect.y + rect.height / 2 });
  const unitsPerMetre = (vb.width / rect.width) * map.transform.ratio;
  const groups: string[] = [];
  map.layers.forEach((layerId, i) => {
    const name = opts.names?.[layerId] ?? COMMUNITY_LAYERS[map.id].layers[layerId]?.[0] ?? layerId;
    names[layerId] = name;
    // Dots spread on a line through the middle, 40 units apart in the drawing.
    const game = opts.dots?.[layerId] ?? {
      gameX: centre.gameX + ((i - map.layers.length / 2) * 40) / unitsPerMetre,
      gameZ: centre.gameZ + ((i % 2 ? 1 : -1) * 25) / unitsPerMetre,
    };
    const drawing = gameToDrawing(map, rect, vb, game);
    floors[layerId] = { fill: FILLS[i % FILLS.length], dot: DOTS[i % DOTS.length], game, map: gameToMap(map.transform, game), drawing };
    // Each floor is nudged by a group transform, as Inkscape layers often are.
    const tx = 7 * (i + 1), ty = -3 * (i + 1);
    const cls = `floor${i}`;
    const display = hidden.has(layerId) ? ' style="display:none"' : '';
    // Three ways of naming a group: label (Inkscape), data-name (Illustrator), id; one lower case.
    const nameAttrs =
      i % 3 === 0 ? `id="layer${i + 1}" inkscape:groupmode="layer" inkscape:label="${name}"`
        : i % 3 === 1 ? `id="g${100 + i}" data-name="${name}"`
          : `id="${name.toLowerCase()}"`;
    const body: string[] = [];
    if (layerId === 'main') {
      // The ground covers the whole drawing and spills past its viewBox (cut at the edge).
      body.push(`<rect class="${cls}" x="${n(vb.x - 200 - tx)}" y="${n(vb.y - 100 - ty)}" width="${n(vb.width + 400)}" height="${n(vb.height + 200)}"/>`);
      body.push(`<g inkscape:label="Roads"><path class="road" d="M${n(vb.x - tx)} ${n(vb.y + vb.height * 0.3 - ty)} L${n(vb.x + vb.width - tx)} ${n(vb.y + vb.height * 0.7 - ty)}"/></g>`);
    } else {
      // A floor covers a band of the drawing (so every floor draws somewhere).
      const bx = vb.x + vb.width * (0.1 + 0.12 * (i % 6)), by = vb.y + vb.height * 0.1;
      body.push(`<g inkscape:label="Buildings"><rect class="${cls}" x="${n(bx - tx)}" y="${n(by - ty)}" width="${n(vb.width * 0.1)}" height="${n(vb.height * 0.35)}"/>`);
      body.push(`<use xlink:href="#crate" href="#crate" x="${n(bx + 5 - tx)}" y="${n(by + 5 - ty)}"/></g>`);
    }
    // The dot: a <use> of a circle in <defs>, in the floor's own colour class.
    body.push(`<g inkscape:label="Spots" class="dot${i}"><use xlink:href="#spot" x="${n(drawing.x - tx)}" y="${n(drawing.y - ty)}"/></g>`);
    groups.push(`<g ${nameAttrs} transform="translate(${tx},${ty})"${display}>${body.join('')}</g>`);
  });
  const styles = [
    ...map.layers.map((_, i) => `.floor${i}{fill:${hex(FILLS[i % FILLS.length])};stroke:none}`),
    ...map.layers.map((_, i) => `.dot${i}{fill:${hex(DOTS[i % DOTS.length])}}`),
    '.road{fill:none;stroke:#505050;stroke-width:3}',
    '.label{font-family:sans-serif;font-size:14px;fill:#202020}',
    '.frame{fill:none;stroke:#101010;stroke-width:2}',
  ].join('');
  const svg = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with a generator in raidmap's tests (tests/support/community-svg.ts) -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" width="${vb.width}mm" height="${vb.height}mm" viewBox="${vb.x} ${vb.y} ${vb.width} ${vb.height}" version="1.1">
<sodipodi:namedview id="namedview1" pagecolor="#ffffff" inkscape:document-units="mm"/>
<defs id="defs1"><style type="text/css">${styles}</style>
<circle id="spot" cx="0" cy="0" r="2.5"/>
<g id="crate"><rect x="0" y="0" width="6" height="6" fill="#3a2a1a"/></g></defs>
<g id="Map" inkscape:label="Map">
${groups.join('\n')}
</g>
<g id="Labels" inkscape:label="Labels"><text class="label" x="${n(vb.x + 20)}" y="${n(vb.y + 30)}">${map.name}</text></g>
<g id="Legend" inkscape:label="Legend"><rect x="${n(vb.x + vb.width - 60)}" y="${n(vb.y + vb.height - 40)}" width="50" height="30" fill="#fafafa"/></g>
<g id="Frame" inkscape:label="Frame"><rect class="frame" x="${vb.x + 1}" y="${vb.y + 1}" width="${vb.width - 2}" height="${vb.height - 2}"/></g>
</svg>
`;
  return { svg, rect, viewBox: vb, names, floors };
}

/**
 * The centroid (image pixels) of the pixels of `colour` (within `tolerance` per channel, alpha
 * over 200) in the window around `near`; undefined when there are none.
 */
export function findColour(
  image: { width: number; height: number; data: Uint8Array | Buffer },
  colour: [number, number, number],
  near: { x: number; y: number },
  radius: number,
  tolerance = 40,
): { x: number; y: number; count: number } | undefined {
  let sx = 0, sy = 0, count = 0;
  for (let y = Math.max(0, Math.floor(near.y - radius)); y < Math.min(image.height, Math.ceil(near.y + radius)); y++) {
    for (let x = Math.max(0, Math.floor(near.x - radius)); x < Math.min(image.width, Math.ceil(near.x + radius)); x++) {
      const o = (y * image.width + x) * 4;
      if (image.data[o + 3] < 200) continue;
      if (Math.abs(image.data[o] - colour[0]) > tolerance || Math.abs(image.data[o + 1] - colour[1]) > tolerance || Math.abs(image.data[o + 2] - colour[2]) > tolerance) continue;
      sx += x + 0.5;
      sy += y + 0.5;
      count++;
    }
  }
  return count ? { x: sx / count, y: sy / count, count } : undefined;
}

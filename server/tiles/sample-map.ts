/**
 * Sample SVG maps, so the product works on a fresh clone without real map art.
 * `generateSampleSvg(map)` is pure and deterministic (seeded by the map id): the same
 * definition always gives the same SVG, so the tile version only changes with the code.
 *
 * Each map gets one `<g id="{layer}">` per layer of its definition:
 *  - `main`: opaque terrain over the whole map (ground, fields, forests, hills, water,
 *    roads, buildings, labels); indoor maps draw their halls as floor plans, the
 *    labyrinth draws a maze;
 *  - `level2`…: floor plans of the buildings that have that floor, transparent elsewhere;
 *  - underground layers: tunnels and rooms on a dark background covering the map.
 * Everything is in map pixels (the SVG's viewBox is the map's size).
 */
import type { MapDefinition } from '../../src/domain/maps';

// ---------------------------------------------------------------- randomness & geometry

type Rng = () => number;

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32: small, fast, deterministic. */
function rngFor(seed: string): Rng {
  let a = hashString(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (rng: Rng, lo: number, hi: number) => lo + rng() * (hi - lo);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];

type Pt = [number, number];

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const n1 = (v: number) => String(Math.round(v * 10) / 10);

/** A smooth curve through the points (Catmull-Rom as cubic Béziers). */
function smoothPath(pts: Pt[], closed: boolean): string {
  const n = pts.length;
  const at = (i: number): Pt => (closed ? pts[(i + n) % n] : pts[Math.max(0, Math.min(n - 1, i))]);
  let d = `M${n1(pts[0][0])} ${n1(pts[0][1])}`;
  const segments = closed ? n : n - 1;
  for (let i = 0; i < segments; i++) {
    const p0 = at(i - 1), p1 = at(i), p2 = at(i + 1), p3 = at(i + 2);
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${n1(c1[0])} ${n1(c1[1])} ${n1(c2[0])} ${n1(c2[1])} ${n1(p2[0])} ${n1(p2[1])}`;
  }
  return closed ? d + 'Z' : d;
}

/** An irregular round shape around (cx, cy). */
function blobPoints(rng: Rng, cx: number, cy: number, rx: number, ry: number, wobble = 0.3, count = 11): Pt[] {
  const phase = rng() * Math.PI * 2;
  return Array.from({ length: count }, (_, i) => {
    const a = phase + (i / count) * Math.PI * 2;
    const k = 1 - wobble / 2 + rng() * wobble;
    return [cx + Math.cos(a) * rx * k, cy + Math.sin(a) * ry * k] as Pt;
  });
}

/** Points from a to b with sideways jitter, for roads and rivers. */
function wander(rng: Rng, a: Pt, b: Pt, steps: number, jitter: number): Pt[] {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len, ny = dx / len;
  return Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    const off = i === 0 || i === steps ? 0 : (rng() - 0.5) * 2 * jitter;
    return [a[0] + dx * t + nx * off, a[1] + dy * t + ny * off] as Pt;
  });
}

function distToSegment(p: Pt, a: Pt, b: Pt): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const t = l2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

function distToLine(p: Pt, line: Pt[]): number {
  let d = Infinity;
  for (let i = 1; i < line.length; i++) d = Math.min(d, distToSegment(p, line[i - 1], line[i]));
  return d;
}

const overlaps = (a: Rect, b: Rect, gap: number) =>
  a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---------------------------------------------------------------- themes

type Water = 'none' | 'river' | 'lake' | 'coast-south' | 'coast-west';

interface Theme {
  ground: string;
  field: string;
  forest: string;
  /** Forest patches per million square map pixels. */
  forests: number;
  /** Buildings per district. */
  buildings: [number, number];
  water: Water;
  /** Indoor maps: the halls of one large complex fill this fraction of the map. */
  complex?: { x: number; y: number; w: number; h: number; floor: string };
  maze?: boolean;
  districts: string[];
}

const THEMES: Record<string, Theme> = {
  dev: { ground: '#8e9868', field: '#a9ad74', forest: '#5d7245', forests: 1.2, buildings: [5, 9], water: 'lake', districts: ['Test Range', 'Depot', 'Hangars', 'Checkpoint'] },
  'ground-zero': { ground: '#8d8a80', field: '#9d9a86', forest: '#5f7048', forests: 0.5, buildings: [10, 16], water: 'river', districts: ['TerraGroup HQ', 'Plaza', 'Underpass', 'Emercom Camp', 'Mira Ave'] },
  factory: { ground: '#77736b', field: '#85807a', forest: '#5c6a48', forests: 0, buildings: [0, 0], water: 'none', complex: { x: 0.12, y: 0.14, w: 0.76, h: 0.7, floor: '#b3aca0' }, districts: ['Gate 0', 'Office', 'Pumping Station', 'Forklift Yard', 'Locker Room', 'Tunnel'] },
  customs: { ground: '#97976c', field: '#b3ad78', forest: '#5d7245', forests: 1.0, buildings: [6, 11], water: 'river', districts: ['Dorms', 'Construction', 'Big Red', 'Gas Station', 'Old Gas', 'Crossroads'] },
  interchange: { ground: '#8f9370', field: '#a7a77a', forest: '#5b7044', forests: 1.1, buildings: [3, 6], water: 'none', complex: { x: 0.22, y: 0.24, w: 0.56, h: 0.5, floor: '#c4beb2' }, districts: ['Ultra', 'Goshan', 'IDEA', 'OLI', 'Emercom', 'Power Station'] },
  woods: { ground: '#7d9158', field: '#a3ab6c', forest: '#4a6438', forests: 2.4, buildings: [3, 7], water: 'lake', districts: ['Sawmill', 'USEC Camp', 'Scav House', 'Mountain Stash', 'Lumber Yard', 'Radio Tower'] },
  shoreline: { ground: '#9a9a6c', field: '#b7b27c', forest: '#5b7043', forests: 1.3, buildings: [5, 10], water: 'coast-south', districts: ['Pier', 'Health Resort', 'Village', 'Weather Station', 'Power Station', 'Gas Station'] },
  reserve: { ground: '#8c9366', field: '#a4a574', forest: '#566c41', forests: 1.2, buildings: [7, 12], water: 'none', districts: ['King', 'Queen', 'Barracks', 'Bunker Hill', 'Train Station', 'Dome'] },
  lighthouse: { ground: '#959a6b', field: '#b3b07b', forest: '#5a6f44', forests: 1.1, buildings: [4, 8], water: 'coast-west', districts: ['Lighthouse', 'Water Treatment', 'Chalet', 'Rogue Camp', 'Train Yard'] },
  streets: { ground: '#7f7c76', field: '#8f8c83', forest: '#5b6c49', forests: 0.3, buildings: [12, 18], water: 'river', districts: ['Concordia', 'Lexos', 'Pinewood Hotel', 'Cardinal', 'Primorsky Ave', 'Klimov Mall'] },
  lab: { ground: '#6f737a', field: '#7c8087', forest: '#55604c', forests: 0, buildings: [0, 0], water: 'none', complex: { x: 0.06, y: 0.08, w: 0.88, h: 0.84, floor: '#d3d6da' }, districts: ['Main Hall', 'Server Room', 'Arena', 'Cafeteria', 'Medical Block', 'Manager Office'] },
  labyrinth: { ground: '#6d6558', field: '#766d5f', forest: '#4f5c42', forests: 0, buildings: [0, 0], water: 'none', maze: true, districts: ['Ritual Hall', 'Pit', 'Crypt', 'Gallery'] },
};

const ROOF = ['#8d8478', '#9a8f80', '#7f7a73', '#a39483', '#6f6a66', '#8a7d6d', '#94887c'];
const FONT = 'Arial, Helvetica, DejaVu Sans, sans-serif';

// ---------------------------------------------------------------- the world model

interface Building extends Rect {
  /** Highest floor (1 = ground only). */
  floors: number;
  seed: number;
}

interface World {
  W: number;
  H: number;
  theme: Theme;
  rng: Rng;
  /** Distance from the coastline into the sea is positive; undefined without a coast. */
  coast?: { line: Pt[]; sea: Pt[]; isSea: (p: Pt) => boolean };
  river?: { line: Pt[]; width: number };
  lakes: { pts: Pt[]; cx: number; cy: number; r: number }[];
  roads: { line: Pt[]; width: number; main: boolean }[];
  districts: { name: string; x: number; y: number }[];
  buildings: Building[];
  halls: Building[];
  forests: Pt[][];
  fields: Pt[][];
  hills: { cx: number; cy: number; rx: number; ry: number; rings: Pt[][] }[];
  topFloor: number;
  /** Where the first district meets the shore (coast maps): a pier or a lighthouse stands there. */
  shorePoint?: Pt;
}

function isWater(w: World, p: Pt, margin: number): boolean {
  if (w.coast) {
    if (w.coast.isSea(p)) return true;
    if (distToLine(p, w.coast.line) < margin) return true;
  }
  if (w.river && distToLine(p, w.river.line) < w.river.width / 2 + margin) return true;
  return w.lakes.some((l) => Math.hypot(p[0] - l.cx, p[1] - l.cy) < l.r * 1.25 + margin);
}

function buildWorld(map: MapDefinition): World {
  const W = map.size.width, H = map.size.height;
  const theme = THEMES[map.id] ?? THEMES.dev;
  const rng = rngFor(`raidmap-sample:${map.id}`);
  const topFloor = Math.max(1, ...map.layers.map((l) => Number(/^level(\d+)$/.exec(l)?.[1] ?? 1)));
  const w: World = { W, H, theme, rng, lakes: [], roads: [], districts: [], buildings: [], halls: [], forests: [], fields: [], hills: [], topFloor };
  const S = Math.min(W, H);

  // Water.
  if (theme.water === 'coast-south') {
    const y0 = H * 0.8;
    const line = wander(rng, [-60, y0 + between(rng, -60, 60)], [W + 60, y0 + between(rng, -60, 60)], 9, H * 0.05);
    w.coast = { line, sea: [...line, [W + 60, H + 60], [-60, H + 60]], isSea: (p) => p[1] > coastAt(line, p[0], 0) };
  } else if (theme.water === 'coast-west') {
    const x0 = W * 0.2;
    const line = wander(rng, [x0 + between(rng, -50, 50), -60], [x0 + between(rng, -50, 50), H + 60], 10, W * 0.05);
    w.coast = { line, sea: [...line, [-60, H + 60], [-60, -60]], isSea: (p) => p[0] < coastAt(line, p[1], 1) };
  } else if (theme.water === 'river') {
    const vertical = rng() < 0.5;
    const a: Pt = vertical ? [W * between(rng, 0.55, 0.75), -80] : [-80, H * between(rng, 0.15, 0.3)];
    const b: Pt = vertical ? [W * between(rng, 0.6, 0.8), H + 80] : [W + 80, H * between(rng, 0.2, 0.35)];
    w.river = { line: wander(rng, a, b, 8, S * 0.06), width: S * 0.022 };
  } else if (theme.water === 'lake') {
    const count = 1 + Math.floor(rng() * 2);
    for (let i = 0; i < count; i++) {
      const r = S * between(rng, 0.05, 0.09);
      const cx = W * between(rng, 0.2, 0.8), cy = H * between(rng, 0.2, 0.8);
      w.lakes.push({ pts: blobPoints(rng, cx, cy, r * 1.3, r, 0.35, 12), cx, cy, r });
    }
  }

  // Indoor complex: halls by binary space partition.
  if (theme.complex) {
    const c = theme.complex;
    const outer: Rect = { x: W * c.x, y: H * c.y, w: W * c.w, h: H * c.h };
    const halls: Rect[] = [];
    const split = (r: Rect, depth: number) => {
      const minSide = S * 0.12;
      if (depth > 4 || (r.w < minSide * 2 && r.h < minSide * 2) || (depth > 2 && rng() < 0.25)) { halls.push(r); return; }
      const vertical = r.w > r.h ? rng() < 0.8 : rng() < 0.2;
      if (vertical && r.w >= minSide * 2) {
        const cut = r.w * between(rng, 0.35, 0.65);
        split({ x: r.x, y: r.y, w: cut, h: r.h }, depth + 1);
        split({ x: r.x + cut, y: r.y, w: r.w - cut, h: r.h }, depth + 1);
      } else if (r.h >= minSide * 2) {
        const cut = r.h * between(rng, 0.35, 0.65);
        split({ x: r.x, y: r.y, w: r.w, h: cut }, depth + 1);
        split({ x: r.x, y: r.y + cut, w: r.w, h: r.h - cut }, depth + 1);
      } else halls.push(r);
    };
    split(outer, 0);
    w.halls = halls.map((r, i) => ({ ...r, floors: 1 + Math.floor(rng() * topFloor), seed: hashString(`${map.id}:hall:${i}`) }));
    ensureUpperFloors(w.halls, topFloor);
    const bySize = [...w.halls].sort((a, b) => b.w * b.h - a.w * a.h);
    const used = new Set<Building>();
    for (const name of theme.districts) {
      // The largest free hall whose centre is away from the labels placed so far.
      const far = (h: Building) => w.districts.every((d) => Math.abs(d.x - h.x - h.w / 2) > S * 0.22 || Math.abs(d.y - h.y - h.h / 2) > S * 0.06);
      const h = bySize.find((c) => !used.has(c) && far(c));
      if (!h) break;
      used.add(h);
      w.districts.push({ name, x: h.x + h.w / 2, y: h.y + h.h / 2 });
    }
  }

  // Main roads.
  const road = (a: Pt, b: Pt, width: number, main: boolean) => w.roads.push({ line: wander(rng, a, b, 6, S * 0.035), width, main });
  const mainW = S * 0.011;
  if (theme.maze) {
    // No roads underground in the maze.
  } else if (theme.complex) {
    const c = theme.complex;
    const m = S * 0.04;
    road([-50, H * c.y - m], [W + 50, H * c.y - m], mainW, true);
    road([-50, H * (c.y + c.h) + m], [W + 50, H * (c.y + c.h) + m], mainW, true);
    road([W * c.x - m, -50], [W * c.x - m, H + 50], mainW * 0.8, false);
  } else if (w.coast && theme.water === 'coast-west') {
    const x = W * between(rng, 0.5, 0.6);
    road([x, -50], [x + between(rng, -200, 200), H + 50], mainW, true);
    road([W * 0.32, H * between(rng, 0.25, 0.4)], [W + 50, H * between(rng, 0.25, 0.4)], mainW * 0.8, true);
    road([W * 0.32, H * between(rng, 0.65, 0.75)], [W + 50, H * between(rng, 0.6, 0.75)], mainW * 0.8, true);
  } else {
    const landBottom = w.coast ? H * 0.68 : H;
    road([-50, landBottom * between(rng, 0.35, 0.6)], [W + 50, landBottom * between(rng, 0.35, 0.6)], mainW, true);
    road([W * between(rng, 0.3, 0.5), -50], [W * between(rng, 0.3, 0.5), w.coast ? landBottom : H + 50], mainW, true);
    if (!w.coast) road([W * between(rng, 0.65, 0.85), -50], [W * between(rng, 0.6, 0.85), H + 50], mainW * 0.8, false);
  }

  // Districts of buildings (outdoor maps).
  if (!theme.complex && !theme.maze) {
    const mainRoads = w.roads.map((r) => r.line);
    theme.districts.forEach((name, i) => {
      for (let tries = 0; tries < 400; tries++) {
        let p: Pt = [W * between(rng, 0.1, 0.9), H * between(rng, 0.1, 0.9)];
        // The first district of a coast map sits on the shore (the pier, the lighthouse).
        if (i === 0 && w.coast) {
          const q = w.coast.line[2 + Math.floor(rng() * (w.coast.line.length - 4))];
          p = theme.water === 'coast-south' ? [q[0], q[1] - S * 0.09] : [q[0] + S * 0.09, q[1]];
          w.shorePoint = q;
        }
        if (isWater(w, p, S * 0.05)) continue;
        if (w.districts.some((d) => Math.hypot(d.x - p[0], d.y - p[1]) < S * 0.22)) continue;
        w.districts.push({ name, x: p[0], y: p[1] });
        // A side road joins the district to the nearest main road.
        let best: Pt = mainRoads[0]?.[0] ?? [W / 2, H / 2], bestD = Infinity;
        for (const line of mainRoads) for (const q of line) {
          const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
          if (d < bestD) { bestD = d; best = q; }
        }
        if (bestD > S * 0.05) w.roads.push({ line: wander(rng, p, best, 3, S * 0.02), width: mainW * 0.65, main: false });
        break;
      }
    });
    for (const d of w.districts) {
      const count = Math.round(between(rng, theme.buildings[0], theme.buildings[1]));
      let placed = 0;
      for (let tries = 0; tries < count * 30 && placed < count; tries++) {
        // The first building of a district is its landmark: larger, and it has the upper floors.
        const big = placed === 0 ? 1.8 : 1;
        const bw = S * between(rng, 0.018, 0.05) * big, bh = S * between(rng, 0.018, 0.045) * big;
        const spread = S * 0.09;
        const b: Rect = { x: d.x + between(rng, -spread, spread) - bw / 2, y: d.y + between(rng, -spread, spread) - bh / 2, w: bw, h: bh };
        if (b.x < 20 || b.y < 20 || b.x + b.w > W - 20 || b.y + b.h > H - 20) continue;
        const corners: Pt[] = [[b.x, b.y], [b.x + b.w, b.y], [b.x, b.y + b.h], [b.x + b.w, b.y + b.h], [b.x + b.w / 2, b.y + b.h / 2]];
        if (corners.some((c) => isWater(w, c, 20))) continue;
        if (w.roads.some((r) => corners.some((c) => distToLine(c, r.line) < r.width / 2 + 14))) continue;
        if (w.buildings.some((o) => overlaps(o, b, 14))) continue;
        w.buildings.push({ ...b, floors: 1, seed: hashString(`${map.id}:b:${w.buildings.length}`) });
        placed++;
      }
    }
    const bySize = [...w.buildings].sort((a, b) => b.w * b.h - a.w * a.h);
    bySize.forEach((b, i) => { b.floors = i < 4 ? topFloor : i < 14 ? 1 + Math.floor(rng() * topFloor) : 1; });
    ensureUpperFloors(w.buildings, topFloor);
  }

  // Fields, forests and hills, away from the districts.
  const area = (W * H) / 1e6;
  const freeOfTown = (p: Pt, r: number) => !w.districts.some((d) => Math.hypot(d.x - p[0], d.y - p[1]) < r + S * 0.1);
  const inComplex = (p: Pt) => !!theme.complex && p[0] > W * theme.complex.x - 60 && p[0] < W * (theme.complex.x + theme.complex.w) + 60 && p[1] > H * theme.complex.y - 60 && p[1] < H * (theme.complex.y + theme.complex.h) + 60;
  if (!theme.maze) {
    for (let i = 0; i < Math.round(area * 0.8) && theme.forests > 0; i++) {
      const p: Pt = [W * rng(), H * rng()];
      const r = S * between(rng, 0.05, 0.1);
      if (!isWater(w, p, 0) && freeOfTown(p, r * 0.5) && !inComplex(p)) w.fields.push(blobPoints(rng, p[0], p[1], r * 1.4, r, 0.4));
    }
    for (let i = 0; i < Math.round(area * theme.forests * 2); i++) {
      const p: Pt = [W * rng(), H * rng()];
      const r = S * between(rng, 0.04, 0.11);
      if (!isWater(w, p, r * 0.4) && freeOfTown(p, r) && !inComplex(p)) w.forests.push(blobPoints(rng, p[0], p[1], r * between(rng, 0.8, 1.5), r, 0.45, 13));
    }
    for (let i = 0; i < 3 + Math.floor(rng() * 3); i++) {
      const p: Pt = [W * rng(), H * rng()];
      const rx = S * between(rng, 0.06, 0.12), ry = rx * between(rng, 0.6, 1);
      if (isWater(w, p, 0) || inComplex(p)) continue;
      const rings = [0.85, 0.6, 0.35].map((k) => blobPoints(rng, p[0], p[1], rx * k, ry * k, 0.2, 10));
      w.hills.push({ cx: p[0], cy: p[1], rx, ry, rings });
    }
  }
  return w;
}

/** The coastline's other coordinate at `at` along axis (0: x → y, 1: y → x). */
function coastAt(line: Pt[], at: number, axis: 0 | 1): number {
  const other = axis === 0 ? 1 : 0;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1], b = line[i];
    if ((at >= a[axis] && at <= b[axis]) || (at >= b[axis] && at <= a[axis])) {
      const t = b[axis] === a[axis] ? 0 : (at - a[axis]) / (b[axis] - a[axis]);
      return a[other] + t * (b[other] - a[other]);
    }
  }
  return line[0][other];
}

/** Every upper floor gets at least three buildings. */
function ensureUpperFloors(list: Building[], topFloor: number): void {
  const bySize = [...list].sort((a, b) => b.w * b.h - a.w * a.h);
  for (let f = 2; f <= topFloor; f++) {
    let have = list.filter((b) => b.floors >= f).length;
    for (const b of bySize) {
      if (have >= 3) break;
      if (b.floors < f) { b.floors = f; have++; }
    }
  }
}

// ---------------------------------------------------------------- drawing

/** A bold label with a halo, kept inside the map's width (mapWidth) when given. */
function label(x: number, y: number, text: string, size: number, dark: boolean, mapWidth = Infinity): string {
  const half = text.length * size * 0.33 + size * 0.3;
  x = Math.max(half, Math.min(mapWidth - half, x));
  const fill = dark ? '#f2efe6' : '#1e1d1a';
  const halo = dark ? '#111214' : '#f4f1e8';
  return `<text x="${n1(x)}" y="${n1(y)}" font-family="${FONT}" font-size="${n1(size)}" font-weight="bold" text-anchor="middle" fill="${fill}" stroke="${halo}" stroke-width="${n1(size * 0.16)}" stroke-linejoin="round" paint-order="stroke">${esc(text)}</text>`;
}

/** A floor plan: opaque floor, outer walls, rooms split by inner walls with door gaps, a stair. */
function floorPlan(b: Building, floor: number, opts: { floorFill: string; wall: string; dark?: boolean }): string {
  const rng = rngFor(`plan:${b.seed}:${floor}`);
  const wallW = Math.max(4, Math.min(b.w, b.h) * 0.025);
  let out = `<rect x="${n1(b.x)}" y="${n1(b.y)}" width="${n1(b.w)}" height="${n1(b.h)}" fill="${opts.floorFill}"/>`;
  const walls: string[] = [];
  const rooms: Rect[] = [];
  const minRoom = Math.max(45, Math.min(b.w, b.h) * 0.2);
  const door = Math.min(34, minRoom * 0.45);
  const split = (r: Rect, depth: number) => {
    const canV = r.w > minRoom * 2, canH = r.h > minRoom * 2;
    if (depth > 5 || (!canV && !canH) || (depth > 1 && rng() < 0.2)) { rooms.push(r); return; }
    const vertical = canV && (!canH || r.w > r.h);
    if (vertical) {
      const x = r.x + r.w * between(rng, 0.35, 0.65);
      const d = r.y + between(rng, door, r.h - door * 2);
      walls.push(`M${n1(x)} ${n1(r.y)}V${n1(d)}M${n1(x)} ${n1(d + door)}V${n1(r.y + r.h)}`);
      split({ x: r.x, y: r.y, w: x - r.x, h: r.h }, depth + 1);
      split({ x, y: r.y, w: r.x + r.w - x, h: r.h }, depth + 1);
    } else {
      const y = r.y + r.h * between(rng, 0.35, 0.65);
      const d = r.x + between(rng, door, r.w - door * 2);
      walls.push(`M${n1(r.x)} ${n1(y)}H${n1(d)}M${n1(d + door)} ${n1(y)}H${n1(r.x + r.w)}`);
      split({ x: r.x, y: r.y, w: r.w, h: y - r.y }, depth + 1);
      split({ x: r.x, y, w: r.w, h: r.y + r.h - y }, depth + 1);
    }
  };
  split(b, 0);
  // A few rooms get a tinted floor (tiles, carpet) so floors read at a glance.
  const tints = opts.dark ? ['#3b4048', '#444a53'] : ['#cfc6b4', '#bfc6c2', '#d6cdbd'];
  for (const r of rooms) if (rng() < 0.35) out += `<rect x="${n1(r.x + 2)}" y="${n1(r.y + 2)}" width="${n1(r.w - 4)}" height="${n1(r.h - 4)}" fill="${pick(rng, tints)}"/>`;
  if (walls.length) out += `<path d="${walls.join('')}" fill="none" stroke="${opts.wall}" stroke-width="${n1(wallW * 0.6)}" stroke-linecap="square"/>`;
  // Stairs in the biggest room's corner.
  const big = rooms.reduce((a, r) => (r.w * r.h > a.w * a.h ? r : a), rooms[0]);
  const sw = Math.min(big.w, big.h) * 0.3;
  if (sw > 18) {
    const sx = big.x + wallW * 2, sy = big.y + wallW * 2;
    let steps = '';
    for (let i = 1; i < 6; i++) steps += `M${n1(sx)} ${n1(sy + (sw * i) / 6)}h${n1(sw * 0.5)}`;
    out += `<rect x="${n1(sx)}" y="${n1(sy)}" width="${n1(sw * 0.5)}" height="${n1(sw)}" fill="none" stroke="${opts.wall}" stroke-width="2"/><path d="${steps}" stroke="${opts.wall}" stroke-width="2"/>`;
  }
  out += `<rect x="${n1(b.x)}" y="${n1(b.y)}" width="${n1(b.w)}" height="${n1(b.h)}" fill="none" stroke="${opts.wall}" stroke-width="${n1(wallW)}"/>`;
  return out;
}

function drawDefs(w: World): string {
  const t = w.theme;
  return `<defs>
<pattern id="sample-trees" width="46" height="46" patternUnits="userSpaceOnUse"><rect width="46" height="46" fill="${t.forest}"/><circle cx="11" cy="12" r="9" fill="#3f5a30" opacity="0.75"/><circle cx="33" cy="25" r="11" fill="#3a532c" opacity="0.7"/><circle cx="15" cy="37" r="7" fill="#4d6a3a" opacity="0.8"/></pattern>
<pattern id="sample-plough" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(35)"><rect width="24" height="24" fill="${t.field}"/><path d="M0 12H24" stroke="#000" stroke-opacity="0.07" stroke-width="4"/></pattern>
<radialGradient id="sample-hill"><stop offset="0" stop-color="#5f4f33" stop-opacity="0.35"/><stop offset="1" stop-color="#5f4f33" stop-opacity="0"/></radialGradient>
<linearGradient id="sample-deep" x1="0" y1="0" x2="${w.theme.water === 'coast-west' ? '-1' : '0'}" y2="${w.theme.water === 'coast-west' ? '0' : '1'}"><stop offset="0" stop-color="#4a7ca6"/><stop offset="1" stop-color="#2c5479"/></linearGradient>
<pattern id="sample-ground" width="90" height="90" patternUnits="userSpaceOnUse"><path d="M8 14l5-3M40 22l4 3M70 9l-3 5M22 52l5 2M58 60l-4 3M84 44l-3-4M12 80l4-2M46 84l3-4" stroke="#000" stroke-opacity="0.12" stroke-width="2.5" stroke-linecap="round"/><circle cx="30" cy="35" r="2.5" fill="#fff" fill-opacity="0.12"/><circle cx="75" cy="75" r="3" fill="#fff" fill-opacity="0.1"/><circle cx="60" cy="30" r="2" fill="#000" fill-opacity="0.1"/></pattern>
<pattern id="sample-parking" width="40" height="90" patternUnits="userSpaceOnUse"><rect width="40" height="90" fill="#5f5f5c"/><path d="M0 0V60" stroke="#e8e4d8" stroke-width="3"/></pattern>
</defs>`;
}

function drawMain(w: World, map: MapDefinition): string {
  const { W, H, theme, rng } = w;
  const S = Math.min(W, H);
  const parts: string[] = [`<rect width="${W}" height="${H}" fill="${theme.ground}"/><rect width="${W}" height="${H}" fill="url(#sample-ground)"/>`];
  if (theme.maze) return parts.join('') + drawMaze(w, `${map.id}:main`, false);
  for (const f of w.fields) parts.push(`<path d="${smoothPath(f, true)}" fill="url(#sample-plough)"/>`);
  for (const h of w.hills) {
    parts.push(`<ellipse cx="${n1(h.cx)}" cy="${n1(h.cy)}" rx="${n1(h.rx)}" ry="${n1(h.ry)}" fill="url(#sample-hill)"/>`);
    parts.push(`<path d="${h.rings.map((r) => smoothPath(r, true)).join('')}" fill="none" stroke="#5f5236" stroke-opacity="0.35" stroke-width="3"/>`);
  }
  for (const f of w.forests) parts.push(`<path d="${smoothPath(f, true)}" fill="url(#sample-trees)" stroke="#3b5230" stroke-width="4" stroke-opacity="0.6"/>`);
  // Water.
  if (w.coast) {
    const sea = smoothPath(w.coast.sea.slice(0, w.coast.line.length), false) + w.coast.sea.slice(w.coast.line.length).map((p) => `L${n1(p[0])} ${n1(p[1])}`).join('') + 'Z';
    const shore = smoothPath(w.coast.line, false);
    parts.push(`<clipPath id="sample-sea-clip"><path d="${sea}"/></clipPath>`);
    parts.push(`<path d="${shore}" fill="none" stroke="#d9c894" stroke-width="${n1(S * 0.03)}"/>`);
    parts.push(`<path d="${sea}" fill="url(#sample-deep)"/>`);
    parts.push(`<path d="${shore}" fill="none" stroke="#6fa0c6" stroke-width="${n1(S * 0.05)}" clip-path="url(#sample-sea-clip)"/>`);
    parts.push(`<path d="${shore}" fill="none" stroke="#8db8d6" stroke-width="${n1(S * 0.018)}" clip-path="url(#sample-sea-clip)"/>`);
    parts.push(`<path d="${shore}" fill="none" stroke="#9c8a5c" stroke-width="3" stroke-dasharray="14 10"/>`);
  }
  if (w.shorePoint) {
    const [qx, qy] = w.shorePoint;
    if (theme.water === 'coast-south') {
      // A pier out into the sea.
      const pw = S * 0.018, pl = S * 0.12;
      parts.push(`<rect x="${n1(qx - pw / 2)}" y="${n1(qy - S * 0.02)}" width="${n1(pw)}" height="${n1(pl)}" fill="#8a6a45" stroke="#3e2f1f" stroke-width="4"/><rect x="${n1(qx - pw * 1.8)}" y="${n1(qy + pl - S * 0.03)}" width="${n1(pw * 3.6)}" height="${n1(pw * 1.4)}" fill="#8a6a45" stroke="#3e2f1f" stroke-width="4"/>`);
    } else {
      // A lighthouse on a rock by the shore.
      const r = S * 0.014;
      const lx = qx - r * 2.4;
      parts.push(`<circle cx="${n1(lx)}" cy="${n1(qy)}" r="${n1(r * 2.2)}" fill="#8c8577" stroke="#4d483f" stroke-width="4"/><circle cx="${n1(lx)}" cy="${n1(qy)}" r="${n1(r)}" fill="#f4f1e8" stroke="#b3302a" stroke-width="${n1(r * 0.45)}"/><circle cx="${n1(lx)}" cy="${n1(qy)}" r="${n1(r * 0.35)}" fill="#f2c94c"/>`);
    }
  }
  if (w.river) {
    const d = smoothPath(w.river.line, false);
    parts.push(`<path d="${d}" fill="none" stroke="#b8aa7e" stroke-width="${n1(w.river.width + 26)}" stroke-linecap="round"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="#4b7aa3" stroke-width="${n1(w.river.width)}" stroke-linecap="round"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="#6d9cc2" stroke-width="${n1(w.river.width * 0.3)}" stroke-opacity="0.6" stroke-linecap="round"/>`);
  }
  for (const l of w.lakes) parts.push(`<path d="${smoothPath(l.pts, true)}" fill="#4b7aa3" stroke="#b8aa7e" stroke-width="12"/>`);
  // Roads: casing, surface, centre line on main roads.
  for (const r of w.roads) parts.push(`<path d="${smoothPath(r.line, false)}" fill="none" stroke="#4f4a40" stroke-width="${n1(r.width + 8)}" stroke-linecap="round" stroke-linejoin="round"/>`);
  for (const r of w.roads) parts.push(`<path d="${smoothPath(r.line, false)}" fill="none" stroke="${r.main ? '#cbbf9f' : '#b9ad8e'}" stroke-width="${n1(r.width)}" stroke-linecap="round" stroke-linejoin="round"/>`);
  for (const r of w.roads) if (r.main) parts.push(`<path d="${smoothPath(r.line, false)}" fill="none" stroke="#f3ecd6" stroke-width="2.5" stroke-dasharray="22 16"/>`);
  // Indoor complex: a yard with parking, then the halls drawn as floor plans.
  if (theme.complex) {
    const c = theme.complex;
    const yard = 40;
    parts.push(`<rect x="${n1(W * c.x - yard)}" y="${n1(H * c.y - yard)}" width="${n1(W * c.w + yard * 2)}" height="${n1(H * c.h + yard * 2)}" fill="#8a877f" stroke="#55524b" stroke-width="6"/>`);
    const lot: Rect = { x: W * c.x, y: H * (c.y + c.h) + yard + S * 0.06, w: W * c.w * 0.35, h: S * 0.07 };
    if (lot.y + lot.h < H - 20) parts.push(`<rect x="${n1(lot.x)}" y="${n1(lot.y)}" width="${n1(lot.w)}" height="${n1(lot.h)}" fill="url(#sample-parking)"/>`);
    for (const h of w.halls) parts.push(floorPlan(h, 1, { floorFill: c.floor, wall: '#2f2e2b' }));
  }
  // Buildings: shadow, roof, ridge.
  for (const b of w.buildings) {
    const roof = ROOF[b.seed % ROOF.length];
    const ridge = b.w > b.h ? `M${n1(b.x + 4)} ${n1(b.y + b.h / 2)}H${n1(b.x + b.w - 4)}` : `M${n1(b.x + b.w / 2)} ${n1(b.y + 4)}V${n1(b.y + b.h - 4)}`;
    parts.push(`<rect x="${n1(b.x + 7)}" y="${n1(b.y + 7)}" width="${n1(b.w)}" height="${n1(b.h)}" fill="#000" opacity="0.22"/><rect x="${n1(b.x)}" y="${n1(b.y)}" width="${n1(b.w)}" height="${n1(b.h)}" fill="${roof}" stroke="#3b3833" stroke-width="3"/><path d="${ridge}" stroke="#00000033" stroke-width="3"/>`);
  }
  // Scattered details: containers, wrecks.
  for (let i = 0; i < 20 && !theme.maze; i++) {
    const x = W * rng(), y = H * rng();
    const inside = (r: Rect, m: number) => x > r.x - m && x < r.x + r.w + m && y > r.y - m && y < r.y + r.h + m;
    if (isWater(w, [x, y], 10) || [...w.halls, ...w.buildings].some((b) => inside(b, 40))) continue;
    if (theme.complex && inside({ x: W * theme.complex.x, y: H * theme.complex.y, w: W * theme.complex.w, h: H * theme.complex.h }, 60)) continue;
    parts.push(`<rect x="${n1(x)}" y="${n1(y)}" width="${n1(S * 0.012)}" height="${n1(S * 0.005)}" fill="${pick(rng, ['#7a4a36', '#3f5e74', '#6b7040'])}" stroke="#222" stroke-width="1.5" transform="rotate(${Math.round(rng() * 180)} ${n1(x)} ${n1(y)})"/>`);
  }
  return parts.join('\n');
}

function drawLabels(w: World, map: MapDefinition, dark: boolean, districts: boolean): string {
  const S = Math.min(w.W, w.H);
  const parts = districts ? w.districts.map((d) => label(d.x, d.y + S * 0.01, d.name, S * 0.028, dark, w.W)) : [];
  // Title block, compass and scale bar.
  const ts = S * 0.045;
  const title = esc(map.name.toUpperCase());
  const boxW = Math.min(w.W * 0.6, ts * 0.68 * title.length + ts * 1.4);
  parts.push(`<g><rect x="${n1(S * 0.025)}" y="${n1(S * 0.025)}" width="${n1(boxW)}" height="${n1(ts * 1.7)}" rx="${n1(ts * 0.2)}" fill="#15171a" fill-opacity="0.78"/><text x="${n1(S * 0.025 + ts * 0.6)}" y="${n1(S * 0.025 + ts * 1.2)}" font-family="${FONT}" font-size="${n1(ts)}" font-weight="bold" fill="#f0e6c8">${title}</text></g>`);
  const cx = w.W - S * 0.07, cy = S * 0.08, r = S * 0.035;
  parts.push(`<g stroke="#1d1d1b" stroke-width="3"><circle cx="${n1(cx)}" cy="${n1(cy)}" r="${n1(r)}" fill="#f4f1e8" fill-opacity="0.8"/><path d="M${n1(cx)} ${n1(cy - r * 0.85)}L${n1(cx + r * 0.25)} ${n1(cy)}L${n1(cx - r * 0.25)} ${n1(cy)}Z" fill="#b3302a"/><path d="M${n1(cx)} ${n1(cy + r * 0.85)}L${n1(cx + r * 0.25)} ${n1(cy)}L${n1(cx - r * 0.25)} ${n1(cy)}Z" fill="#f4f1e8"/></g>`);
  parts.push(`<text x="${n1(cx)}" y="${n1(cy - r * 1.2)}" font-family="${FONT}" font-size="${n1(r * 0.7)}" font-weight="bold" text-anchor="middle" fill="${dark ? '#f0e6c8' : '#1d1d1b'}">N</text>`);
  const metres = [10, 20, 50, 100, 200, 500].find((m) => m * map.transform.ratio >= w.W * 0.08) ?? 500;
  const len = metres * map.transform.ratio;
  const sx = w.W - S * 0.04 - len, sy = w.H - S * 0.04;
  parts.push(`<g><rect x="${n1(sx)}" y="${n1(sy)}" width="${n1(len / 2)}" height="12" fill="#1d1d1b"/><rect x="${n1(sx + len / 2)}" y="${n1(sy)}" width="${n1(len / 2)}" height="12" fill="#f4f1e8" stroke="#1d1d1b" stroke-width="2"/>${label(sx + len / 2, sy - 14, `${metres} m`, S * 0.02, dark)}</g>`);
  return parts.join('\n');
}

function drawUpper(w: World, floor: number): string {
  const S = Math.min(w.W, w.H);
  const parts: string[] = [];
  const list = w.theme.complex ? w.halls : w.buildings;
  const floorFill = w.theme.complex ? '#dcd6ca' : '#d8d0bf';
  for (const b of list) {
    if (b.floors < floor) continue;
    parts.push(floorPlan(b, floor, { floorFill, wall: '#2b2a27' }));
    parts.push(label(b.x + b.w / 2, b.y + b.h / 2 + S * 0.006, `${floor}F`, Math.min(S * 0.018, b.h * 0.3), false));
  }
  return parts.join('\n');
}

const ROOM_NAMES = ['Bunker', 'Pump Room', 'Storage', 'Generator', 'Shelter', 'Control Room', 'Vault', 'Cistern', 'Boiler Room', 'Archive'];

function drawUnderground(w: World, layerId: string, map: MapDefinition): string {
  const { W, H } = w;
  const S = Math.min(W, H);
  const rng = rngFor(`under:${map.id}:${layerId}`);
  const parts: string[] = [`<rect width="${W}" height="${H}" fill="#16181c"/>`];
  if (w.theme.maze) return parts.join('') + drawMaze(w, `${map.id}:${layerId}`, true);
  // Rooms near the districts plus a few extra, joined by a spanning tree of L-shaped tunnels.
  const nodes: Pt[] = w.districts.map((d) => [d.x + between(rng, -S * 0.05, S * 0.05), d.y + between(rng, -S * 0.05, S * 0.05)]);
  for (let i = 0; i < 4; i++) nodes.push([W * between(rng, 0.1, 0.9), H * between(rng, 0.1, 0.9)]);
  const inTree = [0];
  const edges: [number, number][] = [];
  while (inTree.length < nodes.length) {
    let best: [number, number] = [0, 0], bestD = Infinity;
    for (const a of inTree) for (let b = 0; b < nodes.length; b++) {
      if (inTree.includes(b)) continue;
      const d = Math.hypot(nodes[a][0] - nodes[b][0], nodes[a][1] - nodes[b][1]);
      if (d < bestD) { bestD = d; best = [a, b]; }
    }
    edges.push(best);
    inTree.push(best[1]);
  }
  const tunnel = S * 0.018;
  const path = edges.map(([a, b]) => {
    const p = nodes[a], q = nodes[b];
    return rng() < 0.5 ? `M${n1(p[0])} ${n1(p[1])}H${n1(q[0])}V${n1(q[1])}` : `M${n1(p[0])} ${n1(p[1])}V${n1(q[1])}H${n1(q[0])}`;
  }).join('');
  parts.push(`<path d="${path}" fill="none" stroke="#0b0c0e" stroke-width="${n1(tunnel + 14)}" stroke-linejoin="round"/>`);
  parts.push(`<path d="${path}" fill="none" stroke="#4a4f57" stroke-width="${n1(tunnel)}" stroke-linejoin="round"/>`);
  parts.push(`<path d="${path}" fill="none" stroke="#c9a13b" stroke-width="2.5" stroke-dasharray="10 18" stroke-opacity="0.7"/>`);
  // Rooms first, then their names, so no room covers a name.
  const names: string[] = [];
  nodes.forEach((p, i) => {
    const rw = S * between(rng, 0.05, 0.09), rh = S * between(rng, 0.04, 0.07);
    const room: Building = { x: p[0] - rw / 2, y: p[1] - rh / 2, w: rw, h: rh, floors: 1, seed: hashString(`${map.id}:${layerId}:room:${i}`) };
    parts.push(floorPlan(room, -1, { floorFill: '#3a3f47', wall: '#0d0e10', dark: true }));
    if (i < w.districts.length || i % 2 === 0) names.push(label(p[0], p[1] - rh / 2 - S * 0.012, ROOM_NAMES[(hashString(layerId) + i) % ROOM_NAMES.length], S * 0.02, true, W));
  });
  return [...parts, ...names].join('\n');
}

/** A grid maze (depth-first carving); walls on the main floor, lit corridors underground. */
function drawMaze(w: World, seed: string, underground: boolean): string {
  const rng = rngFor(`maze:${seed}`);
  const cell = 150;
  const cols = Math.floor((w.W - 100) / cell), rows = Math.floor((w.H - 100) / cell);
  const ox = (w.W - cols * cell) / 2, oy = (w.H - rows * cell) / 2;
  const open = new Set<string>();
  const seen = new Set<number>([0]);
  const stack = [0];
  while (stack.length) {
    const c = stack[stack.length - 1];
    const cx = c % cols, cy = Math.floor(c / cols);
    const next = ([[1, 0], [-1, 0], [0, 1], [0, -1]] as const)
      .map(([dx, dy]) => [cx + dx, cy + dy])
      .filter(([x, y]) => x >= 0 && y >= 0 && x < cols && y < rows && !seen.has(y * cols + x));
    if (!next.length) { stack.pop(); continue; }
    const [nx, ny] = pick(rng, next);
    const n = ny * cols + nx;
    open.add(`${Math.min(c, n)}-${Math.max(c, n)}`);
    seen.add(n);
    stack.push(n);
  }
  const parts: string[] = [];
  if (underground) {
    let d = '';
    for (const key of open) {
      const [a, b] = key.split('-').map(Number);
      d += `M${n1(ox + (a % cols) * cell + cell / 2)} ${n1(oy + Math.floor(a / cols) * cell + cell / 2)}L${n1(ox + (b % cols) * cell + cell / 2)} ${n1(oy + Math.floor(b / cols) * cell + cell / 2)}`;
    }
    parts.push(`<path d="${d}" fill="none" stroke="#0a0b0d" stroke-width="${cell * 0.55}" stroke-linecap="square"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="#4d4a45" stroke-width="${cell * 0.42}" stroke-linecap="square"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="#7a6c4c" stroke-width="3" stroke-dasharray="8 20"/>`);
  } else {
    parts.push(`<rect x="${n1(ox)}" y="${n1(oy)}" width="${cols * cell}" height="${rows * cell}" fill="#a39a88"/>`);
    let d = '';
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
      const c = y * cols + x;
      if (x + 1 < cols && !open.has(`${c}-${c + 1}`)) d += `M${ox + (x + 1) * cell} ${oy + y * cell}v${cell}`;
      if (y + 1 < rows && !open.has(`${c}-${c + cols}`)) d += `M${ox + x * cell} ${oy + (y + 1) * cell}h${cell}`;
    }
    parts.push(`<path d="${d}" fill="none" stroke="#2a2621" stroke-width="22" stroke-linecap="square"/>`);
    parts.push(`<rect x="${n1(ox)}" y="${n1(oy)}" width="${cols * cell}" height="${rows * cell}" fill="none" stroke="#1c1916" stroke-width="36"/>`);
  }
  // Named chambers at fixed cells.
  if (!w.districts.length) {
    w.theme.districts.forEach((name, i) => {
      const cx = 2 + Math.floor(((i % 2) * 0.5 + 0.2) * (cols - 4)), cy = 2 + Math.floor((Math.floor(i / 2) * 0.5 + 0.2) * (rows - 4));
      w.districts.push({ name, x: ox + cx * cell + cell / 2, y: oy + cy * cell + cell / 2 });
    });
  }
  for (const d of w.districts) {
    parts.push(`<circle cx="${n1(d.x)}" cy="${n1(d.y)}" r="${cell * 0.32}" fill="${underground ? '#8a3b2c' : '#6b2f25'}" stroke="#1c1916" stroke-width="6"/>`);
  }
  return parts.join('\n');
}

/** The sample SVG of a map: deterministic, sized to the map, one group per layer. */
export function generateSampleSvg(map: MapDefinition): string {
  const w = buildWorld(map);
  const groups = map.layers.map((layerId) => {
    let body: string;
    let dark = false;
    if (layerId === 'main') body = drawMain(w, map);
    else if (/^level\d+$/.test(layerId)) body = drawUpper(w, Number(layerId.slice(5)));
    else { body = drawUnderground(w, layerId, map); dark = true; }
    const labels = layerId === 'main' || dark ? drawLabels(w, map, dark, !dark) : '';
    return `<g id="${layerId}" inkscape:groupmode="layer" inkscape:label="${layerId}">\n${body}\n${labels}\n</g>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="${w.W}" height="${w.H}" viewBox="0 0 ${w.W} ${w.H}">
<title>${esc(map.name)} (raidmap sample map)</title>
${drawDefs(w)}
${groups.join('\n')}
</svg>
`;
}

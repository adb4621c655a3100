/**
 * Bounds of every marker field (issue 9, defect 6), shared by the server (admin writes), the
 * markers worker (the list it loads) and the popup's edit form, all through `markerSchema`
 * (src/domain/marker.ts). Pure: no DOM, no Node.
 *
 * Decisions (docs/DECISIONS.md, docs/SERVER.md "Marker bounds"):
 * - Text lengths count UTF-16 code units (JavaScript string length), the same in every place.
 * - `level` is a whole number from -5 to 10, not "one of the map's levels": the map's level list
 *   says which layers to draw; a marker on a floor the map does not list still shows (faded),
 *   and old data (level 0 for "ground") must keep loading. Beyond -5…10 no map has floors.
 * - Coordinates (map pixels) lie within the map's size plus a margin of 10 % of it on every side.
 * - An image URL is an absolute http(s) URL or a path on the site (root-relative like
 *   `/uploads/markers/a.webp` or relative; no `..` segment, no encoded slash); no backslash or
 *   control character. Any other scheme (`javascript:`, `data:`, `blob:`) and protocol-relative
 *   `//host` URLs are refused.
 * - Pass-through fields (any field not in MARKER_FIELDS): at most 32, each value JSON nested at
 *   most 8 deep, all of them together at most 8 KiB as UTF-8 JSON. Measured by an iterative
 *   walk that stops at the first bound crossed, so a hostile value (5,000 nested arrays, a huge
 *   list) costs little and can never overflow the stack.
 */
import { MAPS, type MapId } from './maps';

/** The marker fields the site knows (spec §3) plus the server-managed `version`. */
export const MARKER_FIELDS = [
  'uid', 'map', 'category', 'subCategory', 'level', 'geometry', 'name', 'desc', 'imgs',
  'name_l10n', 'desc_l10n', 'questUid', 'itemsUid', 'version',
] as const;

const MARKER_FIELD_SET: ReadonlySet<string> = new Set(MARKER_FIELDS);

/** Whether `key` is a known marker field (everything else is passed through). */
export function isMarkerField(key: string): boolean {
  return MARKER_FIELD_SET.has(key);
}

export const MARKER_BOUNDS = {
  /** uid: 1…64 characters. */
  uid: 64,
  /** category and subCategory (also checked as a known pair). */
  category: 64,
  /** name and each name_l10n text. */
  name: 200,
  /** desc and each desc_l10n text. */
  desc: 4000,
  /** Images per marker. */
  images: 20,
  /** An image's URL. */
  imageUrl: 2048,
  /** An image's name. */
  imageName: 200,
  /** An image's description. */
  imageDesc: 1000,
  /** Entries of itemsUid. */
  items: 100,
  /** One item uid. */
  itemUid: 64,
  /** questUid (its existence in the quest list is the server's check). */
  questUid: 64,
  /** level: a whole number in this range. */
  level: { min: -5, max: 10 },
  /** Coordinates may lie this share of the map's width / height outside the map. */
  coordinateMargin: 0.1,
  /** Pass-through fields: how many, how deeply nested, how large together (UTF-8 JSON bytes). */
  passThrough: { fields: 32, depth: 8, bytes: 8 * 1024 },
} as const;

/** The allowed range of a marker's coordinates on `map` (map pixels, margin included). */
export function coordinateBounds(map: MapId): { minX: number; maxX: number; minY: number; maxY: number } {
  const { width, height } = MAPS[map].size;
  const mx = width * MARKER_BOUNDS.coordinateMargin;
  const my = height * MARKER_BOUNDS.coordinateMargin;
  return { minX: -mx, maxX: width + mx, minY: -my, maxY: height + my };
}

/** The path prefix of files the site serves itself (`$DATA_DIR/uploads/`). */
export const UPLOADS_PATH = '/uploads/';

// Control characters and backslashes have no place in a stored URL.
const BAD_URL_CHARS = /[\u0000-\u001f\u007f-\u009f\\]/;
/** A URL scheme (`javascript:`, `data:`, `https:`…): letters, digits, + - . before the first colon. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Why `url` may not be an image URL, or undefined when it may. */
export function imageUrlProblem(url: string): string | undefined {
  if (url.length === 0) return 'must not be empty';
  if (url.length > MARKER_BOUNDS.imageUrl) return `must be at most ${MARKER_BOUNDS.imageUrl} characters`;
  if (BAD_URL_CHARS.test(url)) return 'must not contain control characters or backslashes';
  if (SCHEME.test(url) || url.startsWith('//')) {
    if (/^https?:\/\//i.test(url)) {
      try {
        if (new URL(url).hostname) return undefined;
      } catch {
        // fall through
      }
      return 'is not a valid http(s) URL';
    }
    return 'must be an http(s) URL or a path on this site (no other scheme)';
  }
  // A path on the site (`/uploads/markers/a.webp`, `img/b.png`): no step out of its folder.
  const pathPart = url.split(/[?#]/, 1)[0];
  if (pathPart.split('/').some((segment) => segment === '..' || /%2e%2e|%2f|%5c/i.test(segment))) {
    return 'must not contain ".." or encoded slashes';
  }
  return undefined;
}

/** Length in bytes of `text` as UTF-8 (no allocation). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export interface PassThroughIssue {
  /** The pass-through field the problem is in. */
  field: string;
  message: string;
}

/**
 * Nesting depth of a JSON value (a scalar is 0, `[]` or `{}` is 1, `[[1]]` is 2), walked
 * iteratively. Stops early: `tooDeep` once a container lies deeper than `maxDepth`, `tooLarge`
 * once more than `maxNodes` values were seen or queued (every JSON value is at least one byte,
 * so more values than the byte bound means too large anyway).
 */
export function measureJson(value: unknown, maxDepth: number, maxNodes: number): { depth: number; nodes: number; tooDeep: boolean; tooLarge: boolean } {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  let nodes = 0;
  let deepest = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    const d = depths.pop()!;
    nodes++;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > maxDepth) return { depth, nodes, tooDeep: true, tooLarge: false };
    if (depth > deepest) deepest = depth;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    if (nodes + stack.length + children.length > maxNodes) return { depth: deepest, nodes: nodes + stack.length + children.length, tooDeep: false, tooLarge: true };
    for (const child of children) {
      stack.push(child);
      depths.push(depth);
    }
  }
  return { depth: deepest, nodes, tooDeep: false, tooLarge: false };
}

/**
 * The first bound the pass-through fields of `marker` cross (count, depth, size), naming the
 * field; undefined when they are within bounds. Known fields are not looked at.
 */
export function passThroughIssue(marker: Readonly<Record<string, unknown>>): PassThroughIssue | undefined {
  const { fields: maxFields, depth: maxDepth, bytes: maxBytes } = MARKER_BOUNDS.passThrough;
  let count = 0;
  const keys: string[] = [];
  for (const key in marker) {
    if (!Object.prototype.hasOwnProperty.call(marker, key) || isMarkerField(key) || marker[key] === undefined) continue;
    if (++count > maxFields) return { field: key, message: `is one pass-through field too many: at most ${maxFields} fields beyond the marker's own` };
    keys.push(key);
  }
  if (keys.length === 0) return undefined;
  let nodesLeft = maxBytes;
  for (const key of keys) {
    const m = measureJson(marker[key], maxDepth, nodesLeft);
    if (m.tooDeep) return { field: key, message: `is nested more than ${maxDepth} levels deep` };
    if (m.tooLarge) return { field: key, message: `makes the pass-through fields larger than ${maxBytes} bytes` };
    nodesLeft -= m.nodes;
  }
  // Depth and count are bounded now, so serialising cannot overflow or take long.
  let total = 2; // {}
  for (const key of keys) {
    let json: string | undefined;
    try {
      json = JSON.stringify(marker[key]) as string | undefined;
    } catch {
      return { field: key, message: 'is not a JSON value' };
    }
    if (json === undefined) continue;
    total += utf8Length(JSON.stringify(key)) + 1 + utf8Length(json) + 1;
    if (total - 1 > maxBytes) return { field: key, message: `makes the pass-through fields larger than ${maxBytes} bytes (UTF-8 JSON)` };
  }
  return undefined;
}

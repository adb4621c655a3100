/**
 * What a map page remembers of its view for a reload in the same tab (docs/DECISIONS.md "A
 * reload keeps the map view"): the level, the camera (centre and zoom) and the followed quests,
 * kept per tab and per map (sessionStorage `map:view:{mapId}`, src/state/viewMemory.ts).
 *
 * Pure rules: reading a stored value against the map's definition (anything malformed, of the
 * wrong type, out of range or not of this map is left out, never thrown), and which parts the
 * address overrides: a link says what to show, and wins over what was remembered.
 */
import type { MapDefinition } from './maps';
import { parseOverlayParams } from './overlay';
import { parsePosHash } from './position';
import { parseQuestParam } from './quests';

export interface RememberedCamera {
  /** Map-pixel point at the centre of the canvas. */
  x: number;
  y: number;
  /** CSS pixels per map pixel. */
  zoom: number;
}

/** Each part is there only when it was stored and is valid for the map. */
export interface RememberedView {
  level?: number;
  camera?: RememberedCamera;
  /** uids of the followed quests, in the order they were chosen. */
  quests?: string[];
}

/** More quests than anyone follows (pro has no small limit): a longer stored list is cut. */
export const MAX_REMEMBERED_QUESTS = 100;
const MAX_UID_LENGTH = 200;

export function viewMemoryKey(mapId: string): string {
  return `map:view:${mapId}`;
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function parseCamera(value: unknown, map: Pick<MapDefinition, 'size' | 'minZoom' | 'maxZoom'>): RememberedCamera | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { x, y, zoom } = value as Record<string, unknown>;
  if (!finite(x) || !finite(y) || !finite(zoom)) return undefined;
  if (x < 0 || y < 0 || x > map.size.width || y > map.size.height) return undefined;
  if (zoom < map.minZoom || zoom > map.maxZoom) return undefined;
  return { x, y, zoom };
}

function parseQuests(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const uids = value.filter((id): id is string => typeof id === 'string' && id.trim() !== '' && id.length <= MAX_UID_LENGTH).map((id) => id.trim());
  return [...new Set(uids)].slice(0, MAX_REMEMBERED_QUESTS);
}

/** A stored view read for `map`: only its valid parts; `{}` for nothing usable. */
export function parseRememberedView(raw: string | null, map: Pick<MapDefinition, 'size' | 'minZoom' | 'maxZoom' | 'levels'>): RememberedView {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return {};
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const v = value as Record<string, unknown>;
  const view: RememberedView = {};
  if (typeof v.level === 'number' && map.levels.some((l) => l.num === v.level)) view.level = v.level;
  const camera = parseCamera(v.camera, map);
  if (camera) view.camera = camera;
  const quests = parseQuests(v.quests);
  if (quests) view.quests = quests;
  return view;
}

export function serializeRememberedView(view: RememberedView): string {
  const out: RememberedView = {};
  if (view.level !== undefined) out.level = view.level;
  if (view.camera) out.camera = { x: view.camera.x, y: view.camera.y, zoom: view.camera.zoom };
  if (view.quests) out.quests = [...view.quests];
  return JSON.stringify(out);
}

/** What the page's first address says it shows, as far as the remembered view is concerned (an empty or malformed parameter says nothing). */
export interface AddressIntent {
  /** `?obj=`: a marker, with its level, place and quest. */
  obj: boolean;
  /** `?quest=`: the followed quests. */
  quest: boolean;
  /** `#pos=`: the player's position, which picks the level and moves the view. */
  pos: boolean;
  /** `?overlay=1`: the stream overlay, which follows the player and remembers nothing. */
  overlay: boolean;
}

export function addressIntent(search: string, hash: string): AddressIntent {
  const params = new URLSearchParams(search);
  return {
    obj: (params.get('obj') ?? '').trim() !== '',
    quest: parseQuestParam(params.get('quest')).length > 0,
    pos: parsePosHash(hash) !== null,
    overlay: parseOverlayParams(search) !== null,
  };
}

/**
 * The parts of the remembered view to bring back under this address: the level and camera
 * unless a marker link or a position says where to look; the quests unless `?quest=` names
 * them or a marker link (whose quest is followed) shows what its sender saw. Nothing for the
 * stream overlay.
 */
export function viewToRestore(remembered: RememberedView, intent: AddressIntent): RememberedView {
  if (intent.overlay) return {};
  const out: RememberedView = {};
  if (!intent.obj && !intent.pos) {
    if (remembered.level !== undefined) out.level = remembered.level;
    if (remembered.camera) out.camera = remembered.camera;
  }
  if (!intent.obj && !intent.quest && remembered.quests) out.quests = remembered.quests;
  return out;
}

/**
 * A map's first view (what the engine shows before any gesture: the map's centre at its start
 * zoom, clamped) and the poster of it: the tiles of that view, one pyramid level coarser than
 * the engine draws, placed in CSS pixels of the viewport. The page shows the poster as plain
 * images while the engine's script and WebGL start (src/ui/map/poster.ts), then the engine's
 * first frame covers the same picture, sharper. Pure: the camera and the poster share it.
 */
import { layerOpacities, type MapDefinition } from '../../domain/maps';
import { tileBounds, tilePath, type TileManifest } from '../../domain/tiles';
import { clampView, mapToScreen, type CameraLimits, type ViewportSize } from './camera';
import type { CameraView } from './camera-view';
import { pickTileZ, visibleTiles } from './tiles';

export function cameraLimits(map: Pick<MapDefinition, 'size' | 'minZoom' | 'maxZoom'>): CameraLimits {
  return { minZoom: map.minZoom, maxZoom: map.maxZoom, mapWidth: map.size.width, mapHeight: map.size.height };
}

/** The engine's view of a map before any gesture. */
export function firstView(map: Pick<MapDefinition, 'size' | 'startZoom' | 'minZoom' | 'maxZoom'>, viewport: ViewportSize): CameraView {
  return clampView({ x: map.size.width / 2, y: map.size.height / 2, zoom: map.startZoom }, cameraLimits(map), viewport);
}

/** How many pyramid levels coarser than the engine the poster is: a quarter of the texels, 1.2 CSS px each at the usual start zooms. */
export const POSTER_LEVELS_COARSER = 1;

export interface PosterTile {
  /** Manifest layer id (the floor). */
  layer: string;
  /** The floor's opacity at the level shown (maps.ts layerOpacities). */
  opacity: number;
  z: number;
  x: number;
  y: number;
  /** Where the tile sits, in CSS px of the viewport (not rounded: the engine does not round either). */
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The poster's tiles for the first view on a viewport of `dpr`: every floor drawn at `level`
 * (bottom floor first, as the engine stacks them), centre-out within a floor, one level
 * coarser than the engine's (a quarter of the requests, 1.2 CSS px per texel at the usual start zooms).
 */
export function posterTiles(
  map: MapDefinition,
  manifest: Pick<TileManifest, 'minZ' | 'maxZ' | 'width' | 'height' | 'layers'>,
  viewport: ViewportSize,
  dpr: number,
  level = map.defaultLevel,
): PosterTile[] {
  if (!(viewport.width > 0 && viewport.height > 0)) return [];
  const view = firstView(map, viewport);
  const z = Math.max(manifest.minZ, pickTileZ(view.zoom, dpr, manifest) - POSTER_LEVELS_COARSER);
  const { tiles } = visibleTiles(view, viewport, dpr, manifest, z);
  const opacities = layerOpacities(map, level);
  const out: PosterTile[] = [];
  for (const layer of manifest.layers) {
    const opacity = opacities[layer] ?? 0;
    if (opacity <= 0) continue;
    for (const t of tiles) {
      const b = tileBounds(manifest.width, manifest.height, t.z, t.x, t.y);
      const topLeft = mapToScreen(view, viewport, b.minX, b.minY);
      out.push({
        layer,
        opacity,
        z: t.z,
        x: t.x,
        y: t.y,
        left: topLeft.x,
        top: topLeft.y,
        width: (b.maxX - b.minX) * view.zoom,
        height: (b.maxY - b.minY) * view.zoom,
      });
    }
  }
  return out;
}

/**
 * A poster tile of the map page's HTML: its path, the windows (a media query) whose poster shows
 * it, and where it sits relative to the window's centre. The first view is the map's centre at a
 * fixed zoom whatever the window's size (firstView), so a tile's offset from the centre is the
 * same in every window: the server's poster places it with `calc(50% + offset)`.
 */
export interface PosterPreload {
  path: string;
  media: string;
  layer: string;
  opacity: number;
  /** CSS px from the window's centre to the tile's top left corner. */
  fromCentreLeft: number;
  fromCentreTop: number;
  width: number;
  height: number;
}

/**
 * The device pixel ratios the map page's HTML has a poster for (others get theirs from the
 * script): plain screens, Windows laptops scaled to 125 % and 150 %, and phones and Retina
 * screens at 2. Ratios of one pyramid level share their tiles (posterPreloads).
 */
export const PRELOADED_DPRS = [1, 1.25, 1.5, 2] as const;

/** The largest window a preload is written for, in CSS px: a wider window's poster loads its outer tiles from the script. */
export const PRELOAD_MAX_VIEWPORT = { width: 2560, height: 1600 } as const;

/**
 * Whether the poster in the map page's HTML (posterPreloads) is the whole poster of a window of
 * `viewport` at `dpr`: a pixel ratio it was written for, and a window no larger than the largest.
 * Elsewhere the page's script draws its own.
 */
export function htmlPosterCovers(viewport: ViewportSize, dpr: number, dprs: readonly number[] = PRELOADED_DPRS, max: ViewportSize = PRELOAD_MAX_VIEWPORT): boolean {
  return dprs.includes(dpr) && viewport.width > 0 && viewport.height > 0 && viewport.width <= max.width && viewport.height <= max.height;
}

/** The smallest size of one axis (1 … max) at which `shows(size)` holds; it grows with the size, as a centred view's tiles do. */
function smallestShowing(max: number, shows: (size: number) => boolean): number {
  let low = 1;
  let high = max;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (shows(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The poster's tiles for every window up to PRELOAD_MAX_VIEWPORT on the given device pixel
 * ratios, each with the media query of the windows whose poster (posterTiles) has it: the
 * first view is centred, so a tile shows from some width and some height on. The map page's
 * HTML preloads them, so the poster's requests start while the HTML is parsed instead of once
 * the page's script has run (docs/PERFORMANCE.md, "Sixth session").
 */
export function posterPreloads(
  map: MapDefinition,
  manifest: Pick<TileManifest, 'map' | 'version' | 'format' | 'minZ' | 'maxZ' | 'width' | 'height' | 'layers'>,
  dprs: readonly number[] = PRELOADED_DPRS,
  max: ViewportSize = PRELOAD_MAX_VIEWPORT,
): PosterPreload[] {
  // A tile that several pixel ratios show (the same pyramid level) is written once, its media
  // query a list of one query per ratio.
  const tiles = new Map<string, { tile: Omit<PosterPreload, 'media'>; size: string[]; dprs: number[] }>();
  for (const dpr of dprs) {
    const key = (t: PosterTile) => tilePath(manifest, t.layer, t.z, t.x, t.y);
    const has = (viewport: ViewportSize, path: string) => posterTiles(map, manifest, viewport, dpr).some((t) => key(t) === path);
    for (const tile of posterTiles(map, manifest, max, dpr)) {
      const path = key(tile);
      const width = smallestShowing(max.width, (w) => has({ width: w, height: max.height }, path));
      const height = smallestShowing(max.height, (h) => has({ width: max.width, height: h }, path));
      const size = [width > 1 ? `(min-width: ${width}px)` : '', height > 1 ? `(min-height: ${height}px)` : ''].filter(Boolean);
      const id = `${path} ${size.join(' ')}`;
      const seen = tiles.get(id);
      if (seen) {
        seen.dprs.push(dpr);
        continue;
      }
      tiles.set(id, {
        tile: {
          path,
          layer: tile.layer,
          opacity: tile.opacity,
          fromCentreLeft: tile.left - max.width / 2,
          fromCentreTop: tile.top - max.height / 2,
          width: tile.width,
          height: tile.height,
        },
        size,
        dprs: [dpr],
      });
    }
  }
  return [...tiles.values()].map(({ tile, size, dprs: shownAt }) => ({
    ...tile,
    media: shownAt.map((dpr) => [`(resolution: ${dpr}dppx)`, ...size].join(' and ')).join(', '),
  }));
}

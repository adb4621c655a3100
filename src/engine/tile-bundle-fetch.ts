/**
 * The first view's tiles from one bundle (src/domain/tile-bundle.ts, issue 11): the render
 * worker asks for the bundle once instead of fifty tiles one by one, cuts it into the tiles'
 * bytes and decodes each as the single tile would be. A tile the bundle lacks, a bundle that
 * fails or cannot be read, and any other tile are fetched on their own (`fallback`), so the map
 * never misses a tile for the bundle's sake.
 */
import { decodeTileBundle } from '../domain/tile-bundle';
import type { FirstViewBundle, TileFetchService } from './early-tiles';
import type { TileFetcher } from './tile-loader';

export interface BundleIo {
  /** The bundle's body. */
  load: (url: string) => Promise<ArrayBuffer>;
  /** One tile's bytes as an image, as `fetchImageBitmap` decodes a single tile. */
  decode: (bytes: Uint8Array) => Promise<ImageBitmap>;
}

/** The browser's fetch and createImageBitmap, for tiles of `format`. */
export function browserBundleIo(format: string): BundleIo {
  return {
    load: async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`tile bundle ${url}: HTTP ${response.status}`);
      return response.arrayBuffer();
    },
    decode: (bytes) => createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: `image/${format}` }), { premultiplyAlpha: 'premultiply' }),
  };
}

function abortError(): Error {
  const error = new Error('tile request aborted');
  error.name = 'AbortError';
  return error;
}

export class BundledTileFetcher implements TileFetchService {
  /** Each tile of the bundle not asked for yet: its image, or null where it must be fetched alone. */
  private readonly pending = new Map<string, Promise<ImageBitmap | null>>();
  private disposed = false;

  constructor(
    bundle: FirstViewBundle,
    private readonly fallback: TileFetcher<ImageBitmap>,
    io: BundleIo,
  ) {
    const tiles = io.load(bundle.url).then((body) => {
      const entries = decodeTileBundle(body);
      if (entries.length !== bundle.entries.length) throw new Error(`tile bundle ${bundle.url} holds ${entries.length} tiles, not ${bundle.entries.length}`);
      return entries;
    });
    bundle.entries.forEach((url, i) => {
      const image = tiles.then((entries) => {
        const bytes = entries[i];
        return bytes ? io.decode(bytes) : null;
      });
      // A failed bundle or decode: the tile is fetched on its own when asked for.
      this.pending.set(url, image.catch(() => null));
    });
  }

  /** The bundle's tile for `url` (once), else a fetch of its own. */
  readonly fetch: TileFetcher<ImageBitmap> = (url, signal) => {
    const image = this.pending.get(url);
    if (!image) return this.fallback(url, signal);
    this.pending.delete(url);
    return image.then((bitmap) => {
      if (signal.aborted) {
        bitmap?.close();
        throw abortError();
      }
      return bitmap ?? this.fallback(url, signal);
    });
  };

  /** Lets go of the tiles nobody asked for: each is closed as it comes. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const image of this.pending.values()) void image.then((bitmap) => bitmap?.close());
    this.pending.clear();
  }
}

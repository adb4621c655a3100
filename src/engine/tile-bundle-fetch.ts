/**
 * The first view's tiles from one bundle (src/domain/tile-bundle.ts, issue 11): the render
 * worker asks for the bundle once instead of fifty tiles one by one, cuts it into the tiles'
 * bytes and decodes each as the single tile would be. A tile the bundle lacks, a bundle that
 * fails or cannot be read, and any other tile are fetched on their own (`fallback`), so the map
 * never misses a tile for the bundle's sake.
 *
 * Except a bundle answered 404: its version is gone (the map's drawing was replaced after the
 * page read its manifest, docs/TILES.md), and so are its tiles. Each of them fails as its own 404
 * would, at once, which makes the tile layer read the manifest and switch to the new version,
 * instead of asking for the whole first view again one 404 at a time.
 */
import { decodeTileBundle } from '../domain/tile-bundle';
import type { FirstViewBundle, TileFetchService } from './early-tiles';
import type { TileFetcher } from './tile-loader';
import { versionGone } from './kernels/tile-refresh';
import { TileHttpError, tileErrorStatus } from './tile-response';

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
      if (!response.ok) throw new TileHttpError(url, response.status);
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

/** A tile of a bundle answered 404: of a version the server no longer has. */
const GONE = 'gone';

export class BundledTileFetcher implements TileFetchService {
  /** Each tile of the bundle not asked for yet: its image, null where it must be fetched alone, or GONE. */
  private readonly pending = new Map<string, Promise<ImageBitmap | null | typeof GONE>>();
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
      // A failed bundle or decode: the tile is fetched on its own when asked for; a bundle of a gone version: the tile is gone too.
      this.pending.set(url, image.catch((error: unknown) => (versionGone(tileErrorStatus(error)) ? GONE : null)));
    });
  }

  /** The bundle's tile for `url` (once), else a fetch of its own. */
  readonly fetch: TileFetcher<ImageBitmap> = (url, signal) => {
    const image = this.pending.get(url);
    if (!image) return this.fallback(url, signal);
    this.pending.delete(url);
    return image.then((bitmap) => {
      if (signal.aborted) {
        if (bitmap !== GONE) bitmap?.close();
        throw abortError();
      }
      if (bitmap === GONE) throw new TileHttpError(url, 404);
      return bitmap ?? this.fallback(url, signal);
    });
  };

  /** Lets go of the tiles nobody asked for: each is closed as it comes. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const image of this.pending.values()) void image.then((bitmap) => bitmap !== GONE && bitmap?.close());
    this.pending.clear();
  }
}

/**
 * The on-demand tile cache's bookkeeping (issue 9, defect 3): which tile files of the levels
 * rendered on demand (z > PREBUILT_MAX_Z) this process knows, their sizes, and their order of
 * last use. Pure (no disk): the store (store.ts) adds what it writes, touches what it serves,
 * and deletes the files `victims` names. The prebuilt levels are never added, so never evicted.
 *
 *   add / touch ──▶  [ oldest … newest ]  ──▶ victims(down to lowWater) while total > budget
 *
 * A JavaScript Map keeps insertion order, so "least recently used first" is its iteration
 * order once a touch re-inserts the key: O(1) per touch, no linked list of our own.
 */

export interface CacheIndexStats {
  files: number;
  bytes: number;
}

interface Entry {
  bytes: number;
  /** Changes on every touch: an eviction forgets a file only if nobody used it meanwhile. */
  stamp: number;
}

export class TileCacheIndex {
  private readonly sizes = new Map<string, Entry>();
  private total = 0;
  private stamps = 0;

  /** Records `file` as just used, with its size (a new file, or one served again). */
  touch(file: string, bytes: number): void {
    const old = this.sizes.get(file);
    if (old !== undefined) {
      this.sizes.delete(file);
      this.total -= old.bytes;
    }
    this.sizes.set(file, { bytes, stamp: ++this.stamps });
    this.total += bytes;
  }

  /**
   * Adds files found on disk at start-up as older than everything used since (oldest first in
   * `files`); a file already known keeps its place.
   */
  addOlder(files: readonly { file: string; bytes: number }[]): void {
    const newer = [...this.sizes];
    this.sizes.clear();
    this.total = 0;
    const known = new Set(newer.map(([file]) => file));
    for (const { file, bytes } of files) {
      if (known.has(file) || this.sizes.has(file)) continue;
      this.sizes.set(file, { bytes, stamp: ++this.stamps });
      this.total += bytes;
    }
    for (const [file, entry] of newer) {
      this.sizes.set(file, entry);
      this.total += entry.bytes;
    }
  }

  /** Forgets a file (deleted, or its map version removed); with `stamp`, only if not used since. */
  remove(file: string, stamp?: number): void {
    const old = this.sizes.get(file);
    if (old === undefined || (stamp !== undefined && old.stamp !== stamp)) return;
    this.sizes.delete(file);
    this.total -= old.bytes;
  }

  /** The file's size as recorded, undefined when unknown. */
  sizeOf(file: string): number | undefined {
    return this.sizes.get(file)?.bytes;
  }

  /** The file's current stamp (see `remove`), undefined when unknown. */
  stampOf(file: string): number | undefined {
    return this.sizes.get(file)?.stamp;
  }

  /** Forgets every file under a folder prefix (ends with the path separator). */
  removeUnder(prefix: string): void {
    for (const file of [...this.sizes.keys()]) if (file.startsWith(prefix)) this.remove(file);
  }

  has(file: string): boolean {
    return this.sizes.has(file);
  }

  get bytes(): number {
    return this.total;
  }

  get files(): number {
    return this.sizes.size;
  }

  /**
   * The least recently used files to delete so that the total drops to `targetBytes` or
   * below, oldest first. They stay in the index until `remove`d.
   */
  victims(targetBytes: number): string[] {
    const out: string[] = [];
    let total = this.total;
    for (const [file, { bytes }] of this.sizes) {
      if (total <= targetBytes) break;
      out.push(file);
      total -= bytes;
    }
    return out;
  }
}

/**
 * The tiles a process served last, kept in memory (least recently used first out, by bytes), so
 * a hot tile is answered without the four file-system calls of a read (open, stat, read, close,
 * each a trip through libuv's thread pool). A tile's file name holds its map's tile version and
 * a version's tiles never change, so what is kept here is never stale, in this process or beside
 * other processes on the same folder. Budget: TILE_MEMORY_MB per process (0: off).
 *
 * Measured (docs/PERFORMANCE.md, "Twelfth session"): a server's CPU per tile request, hot tiles
 * over keep-alive connections, about half of what it was.
 */
export class TileMemoryCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes_ = 0;
  private hits_ = 0;

  constructor(private maxBytes: number) {
    TileMemoryCache.checkBudget(maxBytes);
  }

  private static checkBudget(maxBytes: number): void {
    if (!(maxBytes >= 0) || !Number.isFinite(maxBytes)) throw new Error(`tile memory budget must be a finite number of bytes ≥ 0, got ${maxBytes}`);
  }

  /** The tile's bytes, now the most recently used; undefined when not held. */
  get(file: string): Buffer | undefined {
    const body = this.entries.get(file);
    if (!body) return undefined;
    this.entries.delete(file);
    this.entries.set(file, body);
    this.hits_++;
    return body;
  }

  /** Keeps a tile's bytes, dropping the least recently used past the budget; a tile over an eighth of the budget is not kept. */
  set(file: string, body: Buffer): void {
    this.delete(file);
    if (body.length > this.maxBytes / 8) return;
    this.entries.set(file, body);
    this.bytes_ += body.length;
    this.trim();
  }

  delete(file: string): void {
    const body = this.entries.get(file);
    if (!body) return;
    this.entries.delete(file);
    this.bytes_ -= body.length;
  }

  /** Drops every tile whose file is under `prefix` (a tile version's folder, removed from disk). */
  deleteUnder(prefix: string): void {
    for (const file of [...this.entries.keys()]) if (file.startsWith(prefix)) this.delete(file);
  }

  /** A new budget; past it, the least recently used go at once. */
  resize(maxBytes: number): void {
    TileMemoryCache.checkBudget(maxBytes);
    this.maxBytes = maxBytes;
    for (const [file, body] of [...this.entries]) if (body.length > maxBytes / 8) this.delete(file);
    this.trim();
  }

  get files(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.bytes_;
  }

  get budget(): number {
    return this.maxBytes;
  }

  /** Tiles answered from memory since the process started. */
  get hits(): number {
    return this.hits_;
  }

  private trim(): void {
    for (const file of this.entries.keys()) {
      if (this.bytes_ <= this.maxBytes) break;
      this.delete(file);
    }
  }
}

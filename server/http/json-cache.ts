/**
 * Serialised JSON responses kept in memory, one per key (a map id, 'quests', …): the body is
 * built once, hashed for a strong ETag, and compressed once per encoding (gzip, br) off the
 * main thread (zlib's thread pool).
 *
 * Invalidations are coalesced and rebuilt off the request path (issue 9, defect 9):
 *
 *   write ─ invalidate(key) ─┐  (more writes: counted, no extra work)
 *                            └─ delayMs later: one rebuild = load + hash + compress the
 *                               encodings the old body was asked for ── publish
 *   readers meanwhile ─ the previous body, compressed variants included (no waiting)
 *   a reader more than maxStaleMs after the first unpublished write ─ waits for a rebuild
 *                               that includes every write so far
 *
 * A body nobody has read since it was published is rebuilt only once its writes pause
 * (`unreadDelayMs` after the last one): a burst of an admin's writes with no reader costs one
 * rebuild at its end, not one every `delayMs` (at 10,000 markers a rebuild is 4.6 MB of JSON,
 * hashed and compressed). The first read of such a body brings its rebuild forward to `delayMs`.
 *
 * So a write acknowledged before a read by at least `maxStaleMs` (100 ms by default) is always
 * in that read's body: the bound is a rule of the cache, not a race against the machine's speed.
 * A body and its ETag always belong together.
 *
 * A `fresh` read (`get(key, { fresh: true })`) is never served past an invalidation: it waits for
 * a rebuild that includes every write so far. The marker routes read fresh for a conditional
 * request (`If-None-Match`, see `readsFresh`): a page asking whether its list is current is
 * answered from a list that holds every write acknowledged (and announced on the live feed)
 * before it asked, never a stale body's 304, nor an older list overwriting a change the page
 * already heard live (docs/DECISIONS.md "A list read again is never older than the live feed").
 * A first read (no If-None-Match) still gets the published body at once.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LIST_MAX_STALE_MS } from '../../src/domain/list-freshness';
import { prepareBody, type PreparedBody } from '../lists/prepared-body';

export type Encoding = 'br' | 'gzip' | 'identity';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export interface CachedBody {
  /** Content hash shared by every encoding; the ETag of an encoding adds a suffix. */
  hash: string;
  identity: Buffer;
  /** Compressed variants, built on first use. */
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

export function etagFor(hash: string, encoding: Encoding): string {
  return encoding === 'identity' ? `"${hash}"` : `"${hash}-${encoding === 'gzip' ? 'gz' : 'br'}"`;
}

/** True when an If-None-Match header names this body in any encoding (or is `*`). */
export function matchesIfNoneMatch(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || tag === `"${hash}"` || tag === `"${hash}-gz"` || tag === `"${hash}-br"`;
  });
}

/**
 * Whether a request is a revalidation (it names the body it holds in If-None-Match, as a browser
 * does for a cached list, and as the map page's "is my list current?" check does): its answer
 * comes from a fresh read (`JsonCache.get(key, { fresh: true })`), so a 304 never confirms a
 * list older than a write acknowledged before the request.
 */
export function readsFresh(ifNoneMatch: string | undefined): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.trim() !== '';
}

/** Picks the response encoding from Accept-Encoding: br, then gzip, else identity (q=0 honoured). */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) accepted.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

export function compress(body: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: 6 });
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      // Quality 5 compresses a 50 MB list in about a second; 11 would take minutes.
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

export interface JsonCacheOptions {
  /**
   * How long after the first invalidation of an idle key its rebuild starts: the writes of a
   * burst become one rebuild. Default 20 ms.
   */
  delayMs?: number;
  /**
   * The oldest unpublished invalidation a reader may be served past: a reader arriving later
   * waits for a rebuild that includes every invalidation so far. Default 100 ms.
   */
  maxStaleMs?: number;
  /**
   * For a body not read since it was published: its rebuild starts this long after the last
   * invalidation (each one postpones it). Default `delayMs` (a short pause is enough).
   */
  unreadDelayMs?: number;
  /** The cache's clock in milliseconds (tests inject one). Default `performance.now`. */
  now?: () => number;
  /** Hears a background rebuild that failed (readers that need it get the error themselves). */
  onError?: (key: string, error: unknown) => void;
}

export const JSON_CACHE_DEFAULTS = { delayMs: 20, maxStaleMs: LIST_MAX_STALE_MS } as const;

interface Waiter {
  /** The invalidation count the body must include (-1: any body). */
  need: number;
  resolve: (body: CachedBody) => void;
  reject: (error: unknown) => void;
}

interface Entry {
  key: string;
  /** The published body, served to readers. */
  body?: CachedBody;
  /** Invalidations so far, and how many of them the published body includes. */
  gen: number;
  bodyGen: number;
  /**
   * Times of invalidations not yet published, the earliest first: at most the first one and
   * the first one after the running build began (enough to know how stale the body is).
   */
  marks: { gen: number; at: number }[];
  /** The invalidation count the running build includes; undefined when none runs. */
  buildGen?: number;
  timer?: ReturnType<typeof setTimeout>;
  /** Whether `timer` waits for the writes to pause (an unread body) rather than delayMs. */
  timerWaitsForPause?: boolean;
  /** Whether the published body was served since it was published. */
  read: boolean;
  waiters: Waiter[];
}

export class JsonCache {
  private readonly entries = new Map<string, Entry>();
  private readonly delayMs: number;
  private readonly unreadDelayMs: number;
  private readonly maxStaleMs: number;
  private readonly now: () => number;
  private readonly onError?: (key: string, error: unknown) => void;
  private disposed = false;

  /**
   * `load` answers a key's JSON text, or a body already encoded and hashed (the marker lists,
   * made on a worker thread: server/lists/).
   */
  constructor(private readonly load: (key: string) => Promise<string | PreparedBody>, options: JsonCacheOptions = {}) {
    this.delayMs = options.delayMs ?? JSON_CACHE_DEFAULTS.delayMs;
    this.unreadDelayMs = options.unreadDelayMs ?? this.delayMs;
    this.maxStaleMs = options.maxStaleMs ?? JSON_CACHE_DEFAULTS.maxStaleMs;
    this.now = options.now ?? (() => performance.now());
    this.onError = options.onError;
  }

  /**
   * The body of `key`: the published one at once while it is fresh enough, else (nothing built
   * yet, or an invalidation older than maxStaleMs unpublished, or any with `fresh`) the next
   * build, shared by every reader waiting for it.
   */
  get(key: string, { fresh = false }: { fresh?: boolean } = {}): Promise<CachedBody> {
    let e = this.entries.get(key);
    if (!e) {
      e = { key, gen: 0, bodyGen: -1, marks: [], read: false, waiters: [] };
      this.entries.set(key, e);
    }
    const staleSince = e.marks[0]?.at;
    // `fresh`: any invalidation not yet published is too stale (the class comment says when).
    const tooStale = staleSince !== undefined && (fresh || this.now() - staleSince > this.maxStaleMs);
    if (e.body && !tooStale) {
      e.read = true;
      // A stale body read for the first time: its rebuild no longer waits for the writes to pause.
      if (e.marks.length > 0 && (e.timerWaitsForPause || !e.timer)) this.buildSoon(e, false);
      return Promise.resolve(e.body);
    }
    const need = tooStale ? e.gen : -1;
    const entry = e;
    return new Promise<CachedBody>((resolve, reject) => {
      entry.waiters.push({ need, resolve, reject });
      this.buildSoon(entry, true);
    });
  }

  /** The body in an encoding (compressed once, then reused). */
  async encoded(body: CachedBody, encoding: Encoding): Promise<Buffer> {
    if (encoding === 'identity') return body.identity;
    let variant = body.encoded[encoding];
    if (!variant) {
      variant = compress(body.identity, encoding);
      body.encoded[encoding] = variant;
      variant.catch(() => {
        if (body.encoded[encoding] === variant) delete body.encoded[encoding];
      });
    }
    return variant;
  }

  /**
   * Marks `key` changed. Readers keep the published body; one rebuild follows `delayMs` later
   * (or after the running one), however many invalidations came meanwhile; for a body nobody
   * read since it was published, `unreadDelayMs` after the last invalidation.
   */
  invalidate(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.gen++;
    const afterBuildStart = e.buildGen !== undefined && e.marks.every((m) => m.gen <= e.buildGen!);
    if (e.marks.length === 0 || afterBuildStart) e.marks.push({ gen: e.gen, at: this.now() });
    if (e.body) this.buildSoon(e, false);
  }

  /** Whether a body of `key` is published or being built. */
  has(key: string): boolean {
    const e = this.entries.get(key);
    return !!e && (e.body !== undefined || e.buildGen !== undefined);
  }

  /** Whether `key`'s published body includes every invalidation so far. */
  isFresh(key: string): boolean {
    const e = this.entries.get(key);
    return !!e?.body && e.marks.length === 0;
  }

  /** Stops pending rebuilds (the app is closing); later calls still work, without timers. */
  dispose(): void {
    this.disposed = true;
    for (const e of this.entries.values()) {
      if (e.timer) clearTimeout(e.timer);
      e.timer = undefined;
    }
  }

  /**
   * Starts a build now (`urgent`: a reader waits), or schedules one: `delayMs` after the first
   * invalidation while the body is being read, `unreadDelayMs` after the last one while it is
   * not (each write postpones it). Never two at once.
   */
  private buildSoon(e: Entry, urgent: boolean): void {
    if (e.buildGen !== undefined) return; // the running build looks again when it ends
    if (urgent) {
      if (e.timer) clearTimeout(e.timer);
      e.timer = undefined;
      void this.build(e);
      return;
    }
    if (this.disposed || (e.timer && !e.timerWaitsForPause)) return;
    if (e.timer) clearTimeout(e.timer);
    const waitForPause = e.body !== undefined && !e.read;
    e.timerWaitsForPause = waitForPause;
    e.timer = setTimeout(() => {
      e.timer = undefined;
      e.timerWaitsForPause = false;
      void this.build(e);
    }, waitForPause ? this.unreadDelayMs : this.delayMs);
    e.timer.unref?.();
  }

  private async build(e: Entry): Promise<void> {
    const startGen = e.gen;
    e.buildGen = startGen;
    // Compress what readers asked the old body for, before publishing: no reader waits for it.
    const encodings = e.body ? (Object.keys(e.body.encoded) as ('br' | 'gzip')[]) : [];
    try {
      const loaded = await this.load(e.key);
      const { identity, hash } = typeof loaded === 'string' ? prepareBody(loaded) : loaded;
      const body: CachedBody = { hash, identity, encoded: {} };
      await Promise.all(encodings.map((encoding) => this.encoded(body, encoding)));
      e.body = body;
      e.bodyGen = startGen;
      e.read = false;
      e.marks = e.marks.filter((m) => m.gen > startGen);
      const served = e.waiters.filter((w) => w.need <= startGen);
      e.waiters = e.waiters.filter((w) => w.need > startGen);
      if (served.length > 0) e.read = true;
      for (const w of served) w.resolve(body);
    } catch (error) {
      // Not cached: every reader waiting gets the error, the next one tries again.
      const failed = e.waiters;
      e.waiters = [];
      for (const w of failed) w.reject(error);
      if (failed.length === 0) this.onError?.(e.key, error);
      e.buildGen = undefined;
      return;
    }
    e.buildGen = undefined;
    if (e.waiters.length > 0) this.buildSoon(e, true);
    else if (e.marks.length > 0) this.buildSoon(e, false);
  }
}

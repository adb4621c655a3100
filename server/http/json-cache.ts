/**
 * Serialised JSON responses kept in memory, one per key (a map id, 'quests', …): the body is
 * built once, hashed for a strong ETag, and compressed once per encoding (gzip, br) off the
 * main thread. Invalidating a key drops it; the next request loads it afresh.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

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

export class JsonCache {
  private readonly entries = new Map<string, Promise<CachedBody>>();

  constructor(private readonly load: (key: string) => Promise<string>) {}

  get(key: string): Promise<CachedBody> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const pending = this.load(key).then((text): CachedBody => {
      const identity = Buffer.from(text, 'utf8');
      const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 32);
      return { hash, identity, encoded: {} };
    });
    this.entries.set(key, pending);
    // A failed load is not cached: the next request tries again.
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    return pending;
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

  invalidate(key: string): void {
    this.entries.delete(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }
}

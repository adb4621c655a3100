/**
 * A response body made ready to cache: its UTF-8 bytes and the content hash its ETag is made
 * of. Made where the body is built (the list worker, or the main thread for small lists), so
 * the main thread neither encodes nor hashes megabytes.
 */
import { createHash } from 'node:crypto';

export interface PreparedBody {
  identity: Buffer;
  /** sha256 of `identity`, base64url, 32 characters. */
  hash: string;
}

export function hashBody(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
}

/** A body from its text (UTF-8) or its bytes. */
export function prepareBody(body: string | Uint8Array): PreparedBody {
  const identity = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return { identity, hash: hashBody(identity) };
}

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

export function prepareBody(text: string): PreparedBody {
  const identity = Buffer.from(text, 'utf8');
  return { identity, hash: hashBody(identity) };
}

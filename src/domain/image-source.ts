/**
 * Where a marker image may be written from. The pages' Content-Security-Policy lets images load
 * from this site and the configured CDN origin only (`img-src 'self' data: blob: [CDN]`,
 * server/http/security.ts), so an image on any other http(s) origin would never show: a new
 * one is refused on add and update (the server's 400, the edit form's note before sending).
 * Only on write: a stored marker that has one still reads (markerSchema allows any http(s)
 * URL), and an update that keeps it unchanged is accepted (server/routes/admin.ts).
 */

/** The origin (`https://cdn.example.com`) of an absolute http(s) or protocol-relative URL, or null for a path on this site. */
export function externalImageOrigin(url: string, siteOrigin: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed) && !trimmed.startsWith('//')) return null;
  try {
    return new URL(trimmed, siteOrigin).origin;
  } catch {
    return null;
  }
}

/**
 * Why the image at `url` may not be written, or undefined when it may: a path on this site, or
 * an http(s) URL on `siteOrigin` or one of `allowedOrigins` (the CDN). The message names what is
 * allowed: `an image must be uploaded to this site (https://x.example is not allowed …)`.
 */
export function imageSourceProblem(url: string, siteOrigin: string, allowedOrigins: readonly string[] = []): string | undefined {
  const origin = externalImageOrigin(url, siteOrigin);
  if (origin === null) return undefined;
  const allowed = [siteOrigin, ...allowedOrigins].map((o) => o.toLowerCase());
  if (allowed.includes(origin.toLowerCase())) return undefined;
  const where = allowedOrigins.length > 0 ? `this site or ${allowedOrigins.join(', ')}` : 'this site';
  return `an image must be uploaded to this site (${origin} is not allowed: the pages show images from ${where} only)`;
}

/**
 * The image origins a build's CDN base adds (`VITE_CDN_BASE`, `https://cdn.example.com/raidmap`
 * → `['https://cdn.example.com']`): none for '' or a path, as the server's img-src (security.ts).
 */
export function cdnImageOrigins(base: string | undefined): string[] {
  const trimmed = base?.trim() ?? '';
  if (!/^https?:\/\//i.test(trimmed)) return [];
  try {
    return [new URL(trimmed).origin];
  } catch {
    return [];
  }
}

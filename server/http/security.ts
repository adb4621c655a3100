/**
 * Security headers and connection limits (issue 9, defects 5 and 10; docs/SERVER.md "Security
 * headers" and "Time-outs").
 *
 * Headers: `@fastify/helmet` on every response with the page's Content-Security-Policy (the
 * one the map page, its workers, PixiJS and the tile fetcher run under, checked in a browser by
 * e2e/security.e2e.ts), `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` with
 * `frame-ancestors 'none'`, and `Referrer-Policy: strict-origin-when-cross-origin`. Uploaded
 * files get a policy of their own that lets nothing run (`default-src 'none'; sandbox`) and
 * anything that is not a plain raster image is sent as a download. Pages under the overlay
 * prefix may be framed by the sources an operator names (OVERLAY_FRAME_ANCESTORS).
 *
 * Connections: Node's header and request time-outs (checked every second, not every 30 s),
 * a keep-alive time-out, a socket inactivity time-out that long-lived streams opt out of, and
 * a cap on the open sockets per remote address.
 */
import { BlockList, isIPv6 } from 'node:net';
import { addressKey } from './address';
import type { Server, Socket } from 'node:net';
import type { ServerOptions as HttpServerOptions } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors';
import { routedPath, underPrefix } from './url-path';

// ---------------------------------------------------------------------------------------------
// Headers

/** Uploaded files, served by the static site from $DATA_DIR/uploads. */
export const UPLOADS_PREFIX = '/uploads/';
/** Where the streamer overlay page will live (issue 10): the only pages that may be framed. */
export const OVERLAY_PREFIX = '/overlay';
/** Uploads: nothing may load or run, the document is sandboxed (no script, no same origin). */
export const UPLOAD_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
/** Served inline from /uploads/; anything else there is sent as an attachment. */
export const INLINE_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'] as const;
/** Public, cacheable files that other origins (a CDN in front of this server) may embed. */
export const CROSS_ORIGIN_PREFIXES = ['/tiles/', '/icons/', '/uploads/', '/public-images/', '/assets/'] as const;
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
/**
 * Where browsers post CSP violation reports. Outside /api/be/ on purpose: browsers send them as
 * `application/csp-report`, which the API's CSRF rule (JSON bodies only) would refuse.
 */
export const CSP_REPORT_PATH = '/api/csp-report';

export interface SecurityOptions {
  /**
   * Origins besides this one that images may come from: the origin of VITE_CDN_BASE (the
   * help popup's position hints) when the site is built with one.
   */
  imgOrigins?: string[];
  /**
   * Who may frame pages under OVERLAY_PREFIX (CSP frame-ancestors sources, e.g.
   * `https://dashboard.twitch.tv` or `*`). Empty or missing: nobody, as everywhere else.
   */
  overlayFrameAncestors?: string[];
}

/** The page's CSP directives (pure); `frameAncestors` replaces `'none'` (overlay pages). */
export function cspDirectives(options: SecurityOptions = {}, frameAncestors: string[] = ["'none'"]): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(options.imgOrigins ?? [])],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': frameAncestors,
    // Violations anywhere (the page, its workers) are posted here: logged and counted.
    'report-uri': [CSP_REPORT_PATH],
  };
}

/** A header value from directives (pure). */
export function cspHeader(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}


/**
 * The origin of a CDN base URL such as `https://cdn.example.com/raidmap` (for img-src);
 * undefined for '' or a relative base. Throws for anything else that is not an http(s) URL.
 */
export function cdnOrigin(base: string | undefined): string | undefined {
  const trimmed = base?.trim() ?? '';
  if (trimmed === '' || trimmed.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`expected an http(s) URL or a path, got "${trimmed}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`expected an http(s) URL, got "${trimmed}"`);
  return url.origin;
}

const HOST_SOURCE = /^(?:(?:https?|wss?):\/\/)?(?:\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(?:\d{1,5}|\*))?(?:\/[A-Za-z0-9._~/-]*)?$/i;

/**
 * Parses OVERLAY_FRAME_ANCESTORS: CSP source expressions separated by spaces or commas
 * (`'self'`, `https:`, `https://host`, `https://*.host:port`, `*`). Throws on anything else,
 * so a typo cannot smuggle another directive into the header.
 */
export function parseFrameAncestors(raw: string | undefined): string[] {
  const tokens = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  for (const token of tokens) {
    const ok = token === "'self'" || token === "'none'" || /^(https?|wss?):$/i.test(token) || HOST_SOURCE.test(token);
    if (!ok) throw new Error(`"${token}" is not a frame-ancestors source ('self', https:, https://host, *.host, *)`);
  }
  if (tokens.includes("'none'") && tokens.length > 1) throw new Error("'none' cannot be combined with other sources");
  return tokens;
}

function setUploadHeaders(reply: FastifyReply): void {
  reply.raw.setHeader('content-security-policy', UPLOAD_CSP);
  // A 404 or other error from under /uploads/ is our own JSON, not a stored file.
  if (reply.statusCode >= 400) return;
  const type = String(reply.getHeader('content-type') ?? '').split(';', 1)[0].trim().toLowerCase();
  if (!(INLINE_UPLOAD_TYPES as readonly string[]).includes(type)) {
    // Not an image we wrote: never rendered by the browser, whatever it contains.
    reply.header('content-type', 'application/octet-stream');
    reply.header('content-disposition', 'attachment');
  }
}

/**
 * Registers helmet and the per-path adjustments on the root instance. Call before the routes,
 * so its hooks run for every route and for the not-found handler (the SPA fallback).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityOptions = {}): void {
  const overlayAncestors = options.overlayFrameAncestors ?? [];
  const overlayCsp = overlayAncestors.length > 0 ? cspHeader(cspDirectives(options, overlayAncestors)) : undefined;

  app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options) },
    // Same-origin everywhere; public files are relaxed below (a CDN origin may embed them).
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    // Not no-referrer: with it a browser sends `Origin: null` on same-origin POSTs, which the
    // CSRF check (docs/SERVER.md "Accounts") rightly refuses.
    referrerPolicy: { policy: REFERRER_POLICY },
    // Without includeSubDomains: other sites of the domain are not this server's to decide.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
    xContentTypeOptions: true,
  });

  // helmet sets its headers on the raw response in onRequest; these replace some of them.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    // The decoded path, as routed: `/%75ploads/x.png` is served from the uploads like `/uploads/x.png`.
    const urlPath = routedPath(request.url);
    if (CROSS_ORIGIN_PREFIXES.some((p) => underPrefix(urlPath, p))) {
      reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
    }
    if (underPrefix(urlPath, UPLOADS_PREFIX)) {
      setUploadHeaders(reply);
    } else if (overlayCsp && underPrefix(urlPath, OVERLAY_PREFIX)) {
      reply.raw.setHeader('content-security-policy', overlayCsp);
      // frame-ancestors governs framing; X-Frame-Options cannot name sources, so it goes.
      reply.raw.removeHeader('x-frame-options');
    }
    return payload;
  });
}

// ---------------------------------------------------------------------------------------------
// Violation reports

/** Directive names a report is counted under; anything else is `other` (bounded labels). */
const KNOWN_DIRECTIVES = new Set([
  'default-src', 'script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem', 'style-src-attr',
  'img-src', 'font-src', 'connect-src', 'media-src', 'object-src', 'frame-src', 'child-src', 'worker-src',
  'manifest-src', 'base-uri', 'form-action', 'frame-ancestors', 'trusted-types', 'require-trusted-types-for',
]);
const REPORT_BODY_LIMIT = 16 * 1024;
const REPORT_LOG_LINES_PER_MINUTE = 20;

/** One violation as the log shows it (fields cut to 300 characters). */
export interface CspViolation {
  directive: string;
  blocked: string;
  document: string;
  source: string;
  line?: number;
  sample: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 300) : '');
const lineOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * The violations in a report body (pure): the `report-uri` form `{ "csp-report": {...} }` or
 * the Reporting API's `[{ type: "csp-violation", body: {...} }]`. Throws with the field at fault.
 */
export function parseCspReport(body: unknown): CspViolation[] {
  if (Array.isArray(body)) {
    if (body.length === 0 || body.length > 100) throw new Error('body: expected 1 to 100 reports');
    return body
      .filter((r: unknown) => (r as { type?: unknown })?.type === 'csp-violation')
      .map((r: unknown, i) => {
        const b = (r as { body?: unknown }).body;
        if (!b || typeof b !== 'object') throw new Error(`[${i}].body: expected an object`);
        const v = b as Record<string, unknown>;
        const directive = text(v.effectiveDirective);
        return { directive, blocked: text(v.blockedURL), document: text(v.documentURL), source: text(v.sourceFile), line: lineOf(v.lineNumber), sample: text(v.sample) };
      });
  }
  const report = (body as { 'csp-report'?: unknown } | null)?.['csp-report'];
  if (!report || typeof report !== 'object' || Array.isArray(report)) throw new Error('csp-report: expected an object');
  const v = report as Record<string, unknown>;
  const directive = text(v['effective-directive']) || text(v['violated-directive']).split(' ', 1)[0];
  return [{ directive, blocked: text(v['blocked-uri']), document: text(v['document-uri']), source: text(v['source-file']), line: lineOf(v['line-number']), sample: text(v['script-sample']) }];
}

/** Counts of the reports received, by directive (for GET /api/be/metrics). */
export class CspReports {
  private readonly byDirective = new Map<string, number>();

  add(violation: CspViolation): void {
    const key = KNOWN_DIRECTIVES.has(violation.directive) ? violation.directive : 'other';
    this.byDirective.set(key, (this.byDirective.get(key) ?? 0) + 1);
  }

  counts(): ReadonlyMap<string, number> {
    return this.byDirective;
  }
}

/**
 * POST /api/csp-report: browsers' violation reports, logged (at most 20 lines a minute, then
 * a count of the rest) and counted. Anyone may post (a browser sends them unasked), so a report
 * changes nothing but a counter and the log; 204, or 400 naming the field for a bad body.
 */
export function registerCspReports(app: FastifyInstance, reports: CspReports): void {
  let windowStart = 0;
  let logged = 0;
  let suppressed = 0;
  app.register(async (scope) => {
    scope.addContentTypeParser(['application/csp-report', 'application/reports+json'], { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        const error = new Error('body: not valid JSON') as Error & { statusCode: number };
        error.statusCode = 400;
        done(error, undefined);
      }
    });
    scope.post(CSP_REPORT_PATH, { bodyLimit: REPORT_BODY_LIMIT }, async (request, reply) => {
      let violations: CspViolation[];
      try {
        violations = parseCspReport(request.body);
      } catch (error) {
        return sendError(reply, 400, (error as Error).message);
      }
      const now = Date.now();
      if (now - windowStart >= 60_000) {
        if (suppressed > 0) request.log.warn({ suppressed }, 'csp violations not logged in the last minute');
        windowStart = now;
        logged = 0;
        suppressed = 0;
      }
      for (const violation of violations) {
        reports.add(violation);
        if (logged < REPORT_LOG_LINES_PER_MINUTE) {
          logged += 1;
          request.log.warn({ csp: violation, userAgent: text(request.headers['user-agent']) }, 'csp violation');
        } else {
          suppressed += 1;
        }
      }
      return reply.code(204).send();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Time-outs and connection caps

export interface ConnectionLimits {
  /** From a request's first byte (or the connection's start) to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body. */
  requestTimeoutMs: number;
  /** Idle time allowed between requests on a kept-alive connection. */
  keepAliveTimeoutMs: number;
  /** Socket inactivity (no byte read or written) while a request is handled; long-lived streams opt out. */
  connectionTimeoutMs: number;
  /** How often Node checks the header and request time-outs. */
  checkIntervalMs: number;
  /** Open sockets per remote address (IPv6: per /64); more are closed at once. 0: no cap. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  // An 8 MB upload (the largest body) needs about 1.1 Mbit/s to arrive in time.
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 10_000,
  connectionTimeoutMs: 30_000,
  checkIntervalMs: 1_000,
  maxConnectionsPerAddress: 64,
};

/** Routes under this prefix stay open by design (server-sent events): no inactivity time-out. */
export const LONG_LIVED_PREFIX = '/api/be/live/';
/** The live position feed's stream (server/pilot/routes.ts), long-lived too. */
export const PILOT_EVENTS_ROUTE = '/api/be/pilot/:code/events';

/** Whether a route (its pattern) is a long-lived stream (pure). */
export function isLongLivedRoute(routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && (routeUrl.startsWith(LONG_LIVED_PREFIX) || routeUrl === PILOT_EVENTS_ROUTE);
}

/** Fastify server options for the limits (`http` goes to Node's http.createServer). */
export function timeoutServerOptions(limits: ConnectionLimits): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: HttpServerOptions;
} {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs || limits.headersTimeoutMs);
  return {
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
  };
}

export { addressKey } from './address';

export interface ConnectionCap {
  /** Open sockets per address key now. */
  counts(): ReadonlyMap<string, number>;
  /** Open sockets now, all addresses together. */
  open(): number;
  /** Sockets closed for being over the cap so far. */
  refused(): number;
}

/** proxy-addr's names for address ranges (as TRUST_PROXY accepts them). */
const NAMED_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/**
 * Whether a socket's address is one of the trusted reverse proxies (TRUST_PROXY entries:
 * addresses, CIDR ranges, loopback / linklocal / uniquelocal). IPv4-mapped IPv6 addresses
 * count as their IPv4 address.
 */
export function trustedProxyTest(trustProxy: readonly string[] | false | undefined): (address: string | undefined) => boolean {
  if (!trustProxy || trustProxy.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [network, prefix, type] of named) list.addSubnet(network, prefix, type);
      continue;
    }
    const [address, prefix] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
    if (mapped) return list.check(mapped[1], 'ipv4');
    return list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
  };
}

export interface CapOptions {
  /** Addresses never capped: the trusted reverse proxies (each of their sockets carries many clients). */
  exempt?: (address: string | undefined) => boolean;
  /** Called for each socket closed for being over the cap. */
  onRefuse?: (key: string) => void;
}

/**
 * Counts open sockets per remote address on the server's 'connection' event and, when `max`
 * is over 0, destroys a socket that would go over it. Loopback is counted like any address;
 * trusted proxies (`exempt`) are counted but never refused: behind a reverse proxy every socket
 * comes from the proxy, which has to cap its clients itself (docs/SERVER.md "Time-outs").
 */
export function capConnectionsPerAddress(server: Server, max: number, { exempt = () => false, onRefuse }: CapOptions = {}): ConnectionCap {
  const open = new Map<string, number>();
  let total = 0;
  let refused = 0;
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (max > 0 && count >= max && !exempt(socket.remoteAddress)) {
      refused += 1;
      onRefuse?.(key);
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    total += 1;
    socket.once('close', () => {
      total -= 1;
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
  return { counts: () => open, open: () => total, refused: () => refused };
}

/**
 * Registers the hook that lifts the inactivity time-out for the long-lived routes (their own
 * pings and the client's going away end them). Node's header and request time-outs need no
 * exception: they stop counting once a GET's request is complete, which is before the handler.
 */
export function registerLongLivedRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'GET' || !isLongLivedRoute(request.routeOptions.url)) return;
    // `app.inject` gives a mock socket without setTimeout: nothing to lift there.
    const socket = request.raw.socket as Partial<Socket> | undefined;
    if (typeof socket?.setTimeout === 'function') socket.setTimeout(0);
  });
}

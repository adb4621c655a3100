/**
 * Static files: the built site (`dist/`, with an SPA fallback to index.html), marker icons
 * (`/icons/` from assets/icons, and `/icons/atlas.png` drawn from them) and uploads (`/uploads/` from $DATA_DIR/uploads).
 * Hashed build assets are cached for a year; index.html is always revalidated.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorHandler, sendError } from './errors';
import { registerIconAtlas } from './icon-atlas';
import { routedPath, underPrefix } from './url-path';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';
/** Prefixes that never fall back to index.html: a miss there is a JSON 404. */
export const NON_SPA_PREFIXES = ['/api', '/tiles', '/icons', '/uploads'] as const;

export interface StaticSiteOptions {
  /** Built site (vite's outDir). Missing: the API still works and page routes answer 404 JSON. */
  distDir: string;
  /** Folder of subcategory icons (`{slug}.svg`). */
  iconsDir: string;
  uploadsDir: string;
  /** Extra HTML for the head and the start of the body of the page at a path and query (the map pages' tile manifest and poster); empty strings for none. */
  extrasFor?: (urlPath: string, search: string) => Promise<PageExtras>;
}

/**
 * Whether a request should get the SPA's index.html instead of a 404 (pure). Decided on the
 * decoded path (url-path.ts): `/%61pi/be/nothing` is an API miss like `/api/be/nothing`.
 */
export function wantsSpaFallback(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const urlPath = routedPath(url);
  if (NON_SPA_PREFIXES.some((p) => underPrefix(urlPath, p))) return false;
  const last = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return !last.includes('.');
}

/** Cache-Control for a file of the built site, by its path inside dist (pure). */
export function distCacheControl(relativePath: string): string {
  const p = relativePath.split(path.sep).join('/').replace(/^\/+/, '');
  if (p === 'index.html' || p.endsWith('/index.html')) return NO_CACHE;
  // Vite writes content-hashed names under assets/: they never change.
  if (p.startsWith('assets/')) return IMMUTABLE;
  return 'public, max-age=3600';
}

/** index.html, re-read when its modification time changes (a rebuild while running). */
class IndexHtml {
  private cached?: { mtimeMs: number; body: Buffer };
  constructor(private readonly file: string) {}

  read(): Buffer | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      return undefined;
    }
    if (!this.cached || this.cached.mtimeMs !== stat.mtimeMs) {
      this.cached = { mtimeMs: stat.mtimeMs, body: fs.readFileSync(this.file) };
    }
    return this.cached.body;
  }
}

/** What a page carries besides the built index.html: HTML for the end of its head and the start of its body. */
export interface PageExtras {
  head: string;
  body: string;
  /** A class for `<html>` from the first paint (the stream overlay's: see-through at once). */
  htmlClass?: string;
}

/** `<html …>` with `name` among its classes (a plain class name). */
function withHtmlClass(text: string, name: string): string {
  return text.replace(/<html\b([^>]*)>/i, (tag, attributes: string) => {
    const existing = /\sclass="([^"]*)"/i.exec(attributes);
    if (!existing) return `<html${attributes} class="${name}">`;
    if (existing[1].split(/\s+/).includes(name)) return tag;
    return `<html${attributes.replace(existing[0], ` class="${`${existing[1]} ${name}`.trim()}"`)}>`;
  });
}

/**
 * The page with `extras.head` before `</head>`, `extras.body` after `<body …>` and
 * `extras.htmlClass` on `<html>`; a page without those places is left alone.
 */
export function withExtras(html: Buffer, extras: PageExtras): Buffer {
  if (!extras.head && !extras.body && !extras.htmlClass) return html;
  let text = html.toString('utf8');
  const headAt = text.indexOf('</head>');
  const bodyTag = /<body[^>]*>/.exec(text);
  if (headAt < 0 || !bodyTag || bodyTag.index < headAt) return html;
  const bodyAt = bodyTag.index + bodyTag[0].length;
  text = `${text.slice(0, headAt)}${extras.head}${text.slice(headAt, bodyAt)}${extras.body}${text.slice(bodyAt)}`;
  return Buffer.from(extras.htmlClass && /^[A-Za-z][\w-]*$/.test(extras.htmlClass) ? withHtmlClass(text, extras.htmlClass) : text);
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The icons, the uploads and the built site, registered in `files` (a scope of registerStaticSite). */
function registerStaticRoots(files: FastifyInstance, options: StaticSiteOptions, distDir: string): void {
  if (isDirectory(options.iconsDir)) {
    files.register(fastifyStatic, {
      root: path.resolve(options.iconsDir),
      prefix: '/icons/',
      decorateReply: false,
      cacheControl: false,
      index: false,
      setHeaders: (reply) => reply.header('cache-control', 'public, max-age=86400'),
    });
  }
  files.register(fastifyStatic, {
    root: path.resolve(options.uploadsDir),
    prefix: '/uploads/',
    decorateReply: false,
    cacheControl: false,
    index: false,
    dotfiles: 'deny',
    setHeaders: (reply) => reply.header('cache-control', 'public, max-age=86400'),
  });
  if (isDirectory(distDir)) {
    files.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      decorateReply: false,
      cacheControl: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each asset (scripts/vite/precompress.ts): sent as
      // they are, not compressed again per request; a file without them is sent as before.
      preCompressed: true,
      setHeaders: (reply, filePath) => reply.header('cache-control', distCacheControl(path.relative(distDir, filePath).replace(/\.(?:br|gz)$/, ''))),
    });
  }
}

/**
 * Registers the static roots and the not-found handler on the root instance (so the SPA
 * fallback and JSON 404s apply to every route, the API's included).
 */
export function registerStaticSite(app: FastifyInstance, options: StaticSiteOptions): void {
  fs.mkdirSync(options.uploadsDir, { recursive: true });
  const distDir = path.resolve(options.distDir);
  const index = new IndexHtml(path.join(distDir, 'index.html'));

  if (isDirectory(options.iconsDir)) registerIconAtlas(app, options.iconsDir);
  // The static roots in a scope of their own, whose error handler turns the file sender's 403
  // (a folder such as /uploads/ — there are no listings —, a dotfile, a path it thinks
  // malicious) into the not-found handling every other missing file gets: a folder is not a
  // page, and a 403 would tell what exists.
  app.register(async (files) => {
    files.setErrorHandler((error, request, reply) => {
      if ((error as { statusCode?: unknown }).statusCode === 403) return reply.callNotFound();
      return errorHandler(error as Error, request, reply);
    });
    registerStaticRoots(files, options, distDir);
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    if (!wantsSpaFallback(request.method, request.url)) {
      return sendError(reply, 404, `no route for ${request.method} ${request.url.split('?', 1)[0]}`);
    }
    const body = index.read();
    if (!body) return sendError(reply, 404, 'the site is not built yet: run `npm run build`');
    const [urlPath, query = ''] = request.url.split('#', 1)[0].split(/\?(.*)/s, 2);
    const page = options.extrasFor ? withExtras(body, await options.extrasFor(urlPath, query ? `?${query}` : '')) : body;
    return reply.code(200).header('content-type', 'text/html; charset=utf-8').header('cache-control', NO_CACHE).send(page);
  });
}

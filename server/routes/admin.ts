/**
 * Admin calls (spec §7, docs/EDITOR.md "Server") on the markers repository. Every route answers
 * 401 without a session and 403 for a signed-in non-admin (requireAdmin). Each write is one
 * versioned transaction with a history row naming the admin; marker lists and the live stream
 * follow the repository's change events.
 *
 *   POST   /api/be/admin/marker/add                  marker fields, optional client uid → 201 { marker } | 409
 *   POST   /api/be/admin/marker/update               full marker, optional base `version` → { marker } | 404 | 409
 *   DELETE /api/be/admin/marker/:uid?version=N                                         → { ok, uid, version } | 404 | 409
 *   GET    /api/be/admin/marker/:uid/history                                           → { history: HistoryEntry[] }
 *   POST   /api/be/admin/maps/marker/upload/base64   { uid: "<markerUid>-<imageIndex>", map, base64,
 *                                                      replaces?: "<img URL>" | null, version? }
 *                                                    → { marker, filePath, fileUrl } | 409
 *          each upload is a new file (uploads/markers/<uid>-<index>-<id>.<ext>), never overwritten;
 *          it goes into the image it names (`replaces`: that image's URL; null or left out: a new
 *          image at the end), else 409 with the stored marker: nothing is replaced unseen
 *
 * 409 is `{ error: 'conflict', message, marker }` (the stored marker); 404 `{ error: 'not_found', message }`.
 * A marker beyond a bound (src/domain/marker-bounds.ts), linking a quest that is not in the
 * quest cache or with a new image on another site (src/domain/image-source.ts: the pages' CSP
 * would not show it) answers 400 naming the field; nothing is stored.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { imageSourceProblem } from '../../src/domain/image-source';
import { MARKER_BOUNDS, markerSchema, type Marker, type MarkerImage } from '../../src/domain/marker';
import { requireAdmin } from '../auth';
import { HttpError, sendError, sendErrorCode } from '../http/errors';
import { bodyIssue } from './auth';

/** A client-chosen marker uid (an optimistic add retried, a delete undone). */
export const CLIENT_UID = /^[A-Za-z0-9_-]{1,64}$/;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/**
 * Body limit of marker add and update: a marker with every field at its bound
 * (src/domain/marker-bounds.ts) is about 100 KB of JSON, up to about 190 KB with Cyrillic text,
 * so 256 KB takes any valid marker and nothing much larger.
 */
export const MARKER_BODY_LIMIT = 256 * 1024;
export const UPLOAD_BODY_LIMIT = 8 * 1024 * 1024;

export interface AdminRoutesOptions {
  /** $DATA_DIR/uploads; images go to its markers/ folder, served at /uploads/markers/. */
  uploadsDir: string;
  /** Origins besides this site's that images may come from (the CDN's; the pages' img-src). Default none. */
  imgOrigins?: readonly string[];
}

/** This site's origin as the request reached it (`https://raidmap.example`; behind a trusted proxy, as forwarded). */
function siteOrigin(request: FastifyRequest): string {
  const given = `${request.protocol}://${request.host}`;
  try {
    // Normalised as URL#origin writes it (no default port, lower case), the form it is compared in.
    return new URL(given).origin;
  } catch {
    return given;
  }
}

/**
 * The 400 message for the first image of `marker` on an origin the pages would not show
 * (`imgs[0].img: an image must be uploaded to this site (…)`), or undefined. URLs in `kept`
 * (the stored marker's own) pass: only a new image is refused, so an old marker stays editable.
 */
export function imageSourceIssue(marker: Pick<Marker, 'imgs'>, site: string, imgOrigins: readonly string[], kept: ReadonlySet<string> = new Set()): string | undefined {
  for (const [index, image] of marker.imgs.entries()) {
    if (kept.has(image.img)) continue;
    const problem = imageSourceProblem(image.img, site, imgOrigins);
    if (problem) return `imgs[${index}].img: ${problem}`;
  }
  return undefined;
}

const uploadSchema = z
  .object({
    uid: z.string({ error: 'uid must be text' }).regex(/^.+-\d{1,3}$/, 'uid must be "<markerUid>-<imageIndex>"').max(80),
    map: z.string({ error: 'map must be text' }).min(1).max(64),
    base64: z.string({ error: 'base64 must be text' }).min(1, 'base64 must not be empty'),
    /**
     * The image the upload replaces, by its URL as the client last saw it at that index; null: a
     * new image, at the end. Left out (an older page): null, so such a page can still add an
     * image but never replace one it may not have seen (docs/DECISIONS.md).
     */
    replaces: z.union([z.string({ error: 'replaces must be an image URL or null' }).min(1).max(MARKER_BOUNDS.imageUrl), z.null()], { error: 'replaces must be an image URL or null' }).optional(),
    /** The marker version the client saw: another stored version answers 409. */
    version: z.number({ error: 'version must be a whole number ≥ 0' }).int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();

/**
 * Why an upload into image `index` of `current` no longer goes where its client meant
 * (`replaces`: the URL it saw there, null for a new image at the end), or undefined when it does.
 * The message says "changed meanwhile", as every 409 of these routes does.
 */
export function uploadTargetIssue(current: Pick<Marker, 'uid' | 'imgs' | 'version'>, index: number, replaces: string | null): string | undefined {
  const now = index < current.imgs.length ? current.imgs[index].img : index === current.imgs.length ? null : undefined;
  if (now === replaces) return undefined;
  const meant = replaces === null ? `a new image ${index}` : `image ${index} (${replaces})`;
  const found = now === undefined ? `the marker has ${current.imgs.length} image(s)` : now === null ? `image ${index} is not there` : `image ${index} is ${now}`;
  return `marker "${current.uid}" was changed meanwhile: the upload was meant for ${meant}, but ${found} (version ${current.version})`;
}

/** Thrown inside the upload's transaction when its target changed: answered 409 with `current`. */
class UploadTargetChanged extends Error {
  constructor(
    readonly current: Marker,
    message: string,
  ) {
    super(message);
    this.name = 'UploadTargetChanged';
  }
}

type ImageType = { ext: 'png' | 'jpg' | 'webp'; mime: string };

/** PNG, JPEG or WebP by magic bytes; undefined for anything else. */
export function sniffImage(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: 'png', mime: 'image/png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { ext: 'jpg', mime: 'image/jpeg' };
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return { ext: 'webp', mime: 'image/webp' };
  return undefined;
}

/** Why an uploaded image was refused: the answer's `error` code (a page shows it in its language). */
export type ImageRefusalCode = 'bad_base64' | 'not_image' | 'image_too_large';

/** A refused upload: `code` for machines, `message` in English words for people. */
export class ImageRefusal extends Error {
  constructor(
    readonly code: ImageRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImageRefusal';
  }
}

/** Decodes a data URL or raw base64; throws an ImageRefusal with a clear message when it is not valid. */
export function decodeBase64Image(input: string): { bytes: Buffer; type: ImageType } {
  let data = input.trim();
  const dataUrl = /^data:([^;,]+)(;base64)?,/i.exec(data);
  if (dataUrl) {
    if (!dataUrl[2]) throw new ImageRefusal('bad_base64', 'the data URL must be base64-encoded');
    if (!/^image\/(png|jpeg|webp)$/i.test(dataUrl[1])) throw new ImageRefusal('not_image', `only PNG, JPEG or WebP images are accepted, got ${dataUrl[1]}`);
    data = data.slice(dataUrl[0].length);
  }
  data = data.replace(/\s+/g, '');
  if (data.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(data) || data.length % 4 === 1) throw new ImageRefusal('bad_base64', 'base64 is not valid base64');
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new ImageRefusal('image_too_large', `the image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
  const type = sniffImage(bytes);
  if (!type) throw new ImageRefusal('not_image', 'the file is not a PNG, JPEG or WebP image');
  return { bytes, type };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The acting admin's name (requireAdmin ran before the handler). */
function actor(request: FastifyRequest): string | null {
  return request.user?.name ?? null;
}

function sendConflict(reply: FastifyReply, uid: string, current: Marker, message?: string): FastifyReply {
  return sendErrorCode(reply, 409, 'conflict', message ?? `marker "${uid}" was changed meanwhile: it is at version ${current.version}`, { marker: current });
}

function sendNotFound(reply: FastifyReply, uid: string): FastifyReply {
  return sendErrorCode(reply, 404, 'not_found', `no marker with uid "${uid}"`);
}

/** `?version=N` of a delete: undefined when absent, a number, or an error message. */
function versionParam(query: unknown): number | undefined | { error: string } {
  const raw = isObject(query) ? query.version : undefined;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) return { error: 'version must be given once, as a whole number ≥ 0' };
  return Number(raw);
}

/**
 * The file name of a new upload: `<uid>-<index>-<id>.<ext>`, `<id>` 16 random hex digits. The
 * uid (characters other than A-Z, a-z, 0-9, _ and - as _) and index say where it was uploaded
 * to; the id makes the name one no other upload has.
 */
export function uploadFileName(markerUid: string, index: number, ext: ImageType['ext']): string {
  const safeUid = markerUid.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${safeUid}-${index}-${randomBytes(8).toString('hex')}.${ext}`;
}

/**
 * Writes an upload to a new file in `dir` and answers its name. Created exclusively (`wx`), so
 * an existing file is never replaced; nobody knows the name before it is answered, so no reader
 * can see the file half-written.
 */
async function writeNewUpload(dir: string, markerUid: string, index: number, image: { bytes: Buffer; type: ImageType }): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const fileName = uploadFileName(markerUid, index, image.type.ext);
    try {
      await fs.promises.writeFile(path.join(dir, fileName), image.bytes, { flag: 'wx' });
      return fileName;
    } catch (error) {
      // A name taken already (64 random bits: never in practice): draw another.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 4) continue;
      // This file was made by this call and named nowhere: a half-written one goes.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await fs.promises.unlink(path.join(dir, fileName)).catch(() => undefined);
      throw error;
    }
  }
}

export async function adminRoutes(app: FastifyInstance, { uploadsDir, imgOrigins = [] }: AdminRoutesOptions): Promise<void> {
  const markers = () => app.raidmap.repos.markers;
  const guard = { onRequest: requireAdmin, bodyLimit: MARKER_BODY_LIMIT };
  const unknownQuest = (questUid: string) => `questUid: no quest with uid "${questUid}" in the quest list`;
  /** Whether a marker's questUid (if any) is in the quest cache. */
  const questKnown = async (questUid: string | null | undefined) => !questUid || (await app.raidmap.repos.quests.get(questUid)) !== undefined;

  app.post('/api/be/admin/marker/add', guard, async (request, reply) => {
    const body = request.body;
    if (!isObject(body)) return sendError(reply, 400, 'the request body must be a JSON object (a marker, uid optional)');
    const uid = body.uid ?? randomUUID();
    if (typeof uid !== 'string' || !CLIENT_UID.test(uid)) return sendError(reply, 400, 'uid must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -');
    // The version is the server's; one sent with an add is ignored.
    const { version: _version, ...fields } = body;
    const parsed = markerSchema.safeParse({ ...fields, uid });
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    if (!(await questKnown(parsed.data.questUid))) return sendError(reply, 400, unknownQuest(parsed.data.questUid!));
    const imageIssue = imageSourceIssue(parsed.data, siteOrigin(request), imgOrigins);
    if (imageIssue) return sendError(reply, 400, imageIssue);
    const result = await markers().insert(parsed.data, { user: actor(request) });
    if (result.conflict) return sendConflict(reply, uid, result.current, `a marker with uid "${uid}" exists`);
    return reply.code(201).header('cache-control', 'no-store').send({ marker: result.marker });
  });

  app.post('/api/be/admin/marker/update', guard, async (request, reply) => {
    if (!isObject(request.body)) return sendError(reply, 400, 'the request body must be a JSON object (a marker with its uid)');
    const parsed = markerSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const { version, ...marker } = parsed.data;
    // An unknown quest is refused, unless the stored marker already links that very uid (the
    // quest left the cache since): an edit of other fields must stay possible.
    const questUid = marker.questUid;
    const questUnknown = Boolean(questUid && !(await questKnown(questUid)));
    // Likewise an image on another site: refused unless the stored marker has that very URL.
    const site = siteOrigin(request);
    const imagesOk = imageSourceIssue(marker, site, imgOrigins) === undefined;
    const check = questUnknown || !imagesOk
      ? (current: Marker) => {
          if (questUnknown && current.questUid !== questUid) throw new HttpError(400, unknownQuest(questUid!));
          const issue = imageSourceIssue(marker, site, imgOrigins, new Set(current.imgs.map((image) => image.img)));
          if (issue) throw new HttpError(400, issue);
        }
      : undefined;
    const result = await markers().update(marker as Marker, { expectedVersion: version, user: actor(request), check });
    if (result.notFound) return sendNotFound(reply, marker.uid);
    if (result.conflict) return sendConflict(reply, marker.uid, result.current);
    return reply.header('cache-control', 'no-store').send({ marker: result.marker });
  });

  app.delete<{ Params: { uid: string } }>('/api/be/admin/marker/:uid', guard, async (request, reply) => {
    const { uid } = request.params;
    const version = versionParam(request.query);
    if (typeof version === 'object') return sendError(reply, 400, version.error);
    const result = await markers().remove(uid, { expectedVersion: version, user: actor(request) });
    if (result.notFound) return sendNotFound(reply, uid);
    if (result.conflict) return sendConflict(reply, uid, result.current);
    return reply.header('cache-control', 'no-store').send({ ok: true, uid, version: result.version });
  });

  app.get<{ Params: { uid: string } }>('/api/be/admin/marker/:uid/history', { onRequest: requireAdmin }, async (request, reply) => {
    const history = await markers().history(request.params.uid);
    return reply.header('cache-control', 'no-store').send({ history });
  });

  app.post(
    '/api/be/admin/maps/marker/upload/base64',
    { onRequest: requireAdmin, bodyLimit: UPLOAD_BODY_LIMIT },
    async (request, reply) => {
      const parsed = uploadSchema.safeParse(request.body);
      if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
      const { uid, map, base64, version } = parsed.data;
      const replaces = parsed.data.replaces ?? null;
      const cut = uid.lastIndexOf('-');
      const markerUid = uid.slice(0, cut);
      const index = Number(uid.slice(cut + 1));
      if (index >= MARKER_BOUNDS.images) return sendError(reply, 400, `uid: image index ${index} is out of range: a marker has at most ${MARKER_BOUNDS.images} images`);
      const marker = await markers().get(markerUid);
      if (!marker) return sendNotFound(reply, markerUid);
      if (marker.map !== map) return sendError(reply, 400, `marker "${markerUid}" is on map "${marker.map}", not "${map}"`);
      // An older page's upload (no `replaces`) beyond the list is its own mistake, as before; one
      // that names its target finds it moved instead (409 below).
      if (parsed.data.replaces === undefined && index > marker.imgs.length) {
        return sendError(reply, 400, `uid: image index ${index} is out of range: the marker has ${marker.imgs.length} image(s)`);
      }
      let image: ReturnType<typeof decodeBase64Image>;
      try {
        image = decodeBase64Image(base64);
      } catch (error) {
        const message = (error as Error).message;
        const text = message.startsWith('base64') ? message : `base64: ${message}`;
        return error instanceof ImageRefusal ? sendErrorCode(reply, 400, error.code, text) : sendError(reply, 400, text);
      }
      // Checked before the file is written (a changed target leaves no file behind), and again
      // in the write's transaction below (another write may come in between).
      if (version !== undefined && marker.version !== version) return sendConflict(reply, markerUid, marker);
      const targetIssue = uploadTargetIssue(marker, index, replaces);
      if (targetIssue) return sendConflict(reply, markerUid, marker, targetIssue);
      // A file of its own for every upload, never written over: an image URL always shows the
      // same picture (a browser may keep it a day), whatever happens to the marker's list
      // afterwards (an image removed or moved, a copy sharing the file, an undo, a history entry).
      const dir = path.join(uploadsDir, 'markers');
      await fs.promises.mkdir(dir, { recursive: true });
      const fileName = await writeNewUpload(dir, markerUid, index, image);
      const fileUrl = `/uploads/markers/${fileName}?v=${Date.now()}`;
      /** A file no marker names (the write was refused): it goes now rather than at the next sweep. */
      const dropUnused = () => fs.promises.unlink(path.join(dir, fileName)).catch(() => undefined);
      // Read-modify-write on the stored marker in one versioned transaction: two uploads to
      // different images of one marker at once both keep their image.
      // The target is checked on the row read there: an image removed or another upload stored
      // meanwhile answers 409, never a picture replaced under another admin's hands.
      let result: Awaited<ReturnType<ReturnType<typeof markers>['modify']>>;
      try {
        result = await markers().modify(
          markerUid,
          (current) => {
            if (current.map !== map) throw new HttpError(400, `marker "${markerUid}" is on map "${current.map}", not "${map}"`);
            const issue = uploadTargetIssue(current, index, replaces);
            if (issue) throw new UploadTargetChanged(current, issue);
            const imgs = [...current.imgs];
            const previous = imgs[index] as MarkerImage | undefined;
            imgs[index] = { name: previous?.name ?? '', desc: previous?.desc ?? '', img: fileUrl };
            return { ...current, imgs };
          },
          { user: actor(request), expectedVersion: version },
        );
      } catch (error) {
        if (!(error instanceof UploadTargetChanged)) throw error;
        await dropUnused();
        return sendConflict(reply, markerUid, error.current, error.message);
      }
      if (!result.ok) await dropUnused();
      if (result.notFound) return sendNotFound(reply, markerUid);
      if (result.conflict) return sendConflict(reply, markerUid, result.current);
      const updated = result.marker;
      return reply
        .header('cache-control', 'no-store')
        .send({ marker: updated, filePath: path.posix.join('uploads', 'markers', fileName), fileUrl });
    },
  );
}

/**
 * Admin calls (spec §7) on the markers repository. Every route answers 401 without a session
 * and 403 for a signed-in non-admin (requireAdmin). Marker lists are invalidated by the
 * repository's change events.
 *
 *   POST   /api/be/admin/marker/add                  marker fields (no uid) → { marker }
 *   POST   /api/be/admin/marker/update               full marker with uid   → { marker } | 404
 *   DELETE /api/be/admin/marker/:uid                                        → { ok, uid } | 404
 *   POST   /api/be/admin/maps/marker/upload/base64   { uid: "<markerUid>-<imageIndex>", map, base64 }
 *                                                    → { marker, filePath, fileUrl }
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { markerSchema, type Marker, type MarkerImage } from '../../src/domain/marker';
import { requireAdmin } from '../auth';
import { sendError } from '../http/errors';
import { AUTH_BODY_LIMIT, bodyIssue } from './auth';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 8 * 1024 * 1024;

export interface AdminRoutesOptions {
  /** $DATA_DIR/uploads; images go to its markers/ folder, served at /uploads/markers/. */
  uploadsDir: string;
}

const uploadSchema = z
  .object({
    uid: z.string({ error: 'uid must be text' }).regex(/^.+-\d{1,3}$/, 'uid must be "<markerUid>-<imageIndex>"').max(80),
    map: z.string({ error: 'map must be text' }).min(1).max(64),
    base64: z.string({ error: 'base64 must be text' }).min(1, 'base64 must not be empty'),
  })
  .strict();

type ImageType = { ext: 'png' | 'jpg' | 'webp'; mime: string };

/** PNG, JPEG or WebP by magic bytes; undefined for anything else. */
export function sniffImage(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { ext: 'png', mime: 'image/png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { ext: 'jpg', mime: 'image/jpeg' };
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return { ext: 'webp', mime: 'image/webp' };
  return undefined;
}

/** Decodes a data URL or raw base64; throws an Error with a clear message when it is not valid. */
export function decodeBase64Image(input: string): { bytes: Buffer; type: ImageType } {
  let data = input.trim();
  const dataUrl = /^data:([^;,]+)(;base64)?,/i.exec(data);
  if (dataUrl) {
    if (!dataUrl[2]) throw new Error('the data URL must be base64-encoded');
    if (!/^image\/(png|jpeg|webp)$/i.test(dataUrl[1])) throw new Error(`only PNG, JPEG or WebP images are accepted, got ${dataUrl[1]}`);
    data = data.slice(dataUrl[0].length);
  }
  data = data.replace(/\s+/g, '');
  if (data.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(data) || data.length % 4 === 1) throw new Error('base64 is not valid base64');
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new Error(`the image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
  const type = sniffImage(bytes);
  if (!type) throw new Error('the file is not a PNG, JPEG or WebP image');
  return { bytes, type };
}

export async function adminRoutes(app: FastifyInstance, { uploadsDir }: AdminRoutesOptions): Promise<void> {
  const markers = () => app.raidmap.repos.markers;
  const guard = { onRequest: requireAdmin, bodyLimit: AUTH_BODY_LIMIT };

  app.post('/api/be/admin/marker/add', guard, async (request, reply) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return sendError(reply, 400, 'the request body must be a JSON object (a marker without uid)');
    const parsed = markerSchema.safeParse({ ...(body as Record<string, unknown>), uid: randomUUID() });
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const marker = await markers().insert(parsed.data);
    return reply.code(201).header('cache-control', 'no-store').send({ marker });
  });

  app.post('/api/be/admin/marker/update', guard, async (request, reply) => {
    const parsed = markerSchema.safeParse(request.body);
    if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
    const marker = await markers().update(parsed.data);
    if (!marker) return sendError(reply, 404, `no marker with uid "${parsed.data.uid}"`);
    return reply.header('cache-control', 'no-store').send({ marker });
  });

  app.delete<{ Params: { uid: string } }>('/api/be/admin/marker/:uid', guard, async (request, reply) => {
    const { uid } = request.params;
    if (!(await markers().remove(uid))) return sendError(reply, 404, `no marker with uid "${uid}"`);
    return reply.header('cache-control', 'no-store').send({ ok: true, uid });
  });

  app.post(
    '/api/be/admin/maps/marker/upload/base64',
    { onRequest: requireAdmin, bodyLimit: UPLOAD_BODY_LIMIT },
    async (request, reply) => {
      const parsed = uploadSchema.safeParse(request.body);
      if (!parsed.success) return sendError(reply, 400, bodyIssue(parsed.error));
      const { uid, map, base64 } = parsed.data;
      const cut = uid.lastIndexOf('-');
      const markerUid = uid.slice(0, cut);
      const index = Number(uid.slice(cut + 1));
      const marker = await markers().get(markerUid);
      if (!marker) return sendError(reply, 404, `no marker with uid "${markerUid}"`);
      if (marker.map !== map) return sendError(reply, 400, `marker "${markerUid}" is on map "${marker.map}", not "${map}"`);
      if (index > marker.imgs.length) {
        return sendError(reply, 400, `image index ${index} is out of range: the marker has ${marker.imgs.length} image(s)`);
      }
      let image: ReturnType<typeof decodeBase64Image>;
      try {
        image = decodeBase64Image(base64);
      } catch (error) {
        return sendError(reply, 400, (error as Error).message);
      }
      const stamp = Date.now();
      const safeUid = markerUid.replace(/[^A-Za-z0-9_-]/g, '_');
      const fileName = `${safeUid}-${index}.${image.type.ext}`;
      const dir = path.join(uploadsDir, 'markers');
      await fs.promises.mkdir(dir, { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const target = path.join(dir, fileName);
      const temp = `${target}.${process.pid}.${stamp}.tmp`;
      await fs.promises.writeFile(temp, image.bytes);
      await fs.promises.rename(temp, target);
      const fileUrl = `/uploads/markers/${fileName}?v=${stamp}`;
      const imgs = [...marker.imgs];
      const previous = imgs[index] as MarkerImage | undefined;
      imgs[index] = { name: previous?.name ?? '', desc: previous?.desc ?? '', img: fileUrl };
      const updated = (await markers().update({ ...marker, imgs } as Marker))!;
      return reply
        .header('cache-control', 'no-store')
        .send({ marker: updated, filePath: path.posix.join('uploads', 'markers', fileName), fileUrl });
    },
  );
}

/**
 * Removes uploaded marker images that no marker uses any more (issue 9, defect 7): a deleted
 * marker's images, an image removed from a marker, the old file of an image re-uploaded with
 * another type, a file left by an upload that failed half-way.
 *
 * A file goes only when it is gone for good, that is, once all of these hold:
 * - no stored marker's `imgs` names it (`/uploads/markers/<file>`, any `?v=`);
 * - its marker (the uid in its name, `<uid>-<index>-<id>.<ext>`, older files `<uid>-<index>.<ext>`) last changed longer ago than the
 *   window: the admin editor undoes a delete by adding the same uid back with the same images
 *   (docs/EDITOR.md), and every change leaves a `marker_history` row, so the newest row of the
 *   uid says since when the file may have been unused;
 * - the file itself is older than the window (an upload writes the file first, then the marker).
 * Just before a file is deleted its marker's history is read again, so an undo that landed
 * during the sweep keeps it. Only `$DATA_DIR/uploads/markers/` is swept; seeded samples
 * (`uploads/sample/`) are never touched.
 *
 * `sweepUploads` is one pass (tests call it with their own clock); `startUploadSweeper` runs
 * it periodically in the background. Several server processes may sweep one folder: deleting
 * a file twice is harmless.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** The folder under the uploads directory that admin uploads go to (server/routes/admin.ts). */
export const MARKER_UPLOADS = 'markers';
/** Default of UPLOAD_RETENTION_HOURS: how long an unused upload is kept for an undo. */
export const DEFAULT_UPLOAD_RETENTION_HOURS = 24;
/** How often the background sweeper runs by default. */
export const DEFAULT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface SweepOptions {
  db: Db;
  /** `$DATA_DIR/uploads`. */
  uploadsDir: string;
  /** An unused file is kept this long after its marker last changed (the undo window). */
  windowMs: number;
  /** Clock in epoch milliseconds (tests inject one). Default Date.now. */
  now?: () => number;
}

export interface SweepResult {
  /** Files deleted (names within uploads/markers/). */
  removed: string[];
  /** Files still used by a marker. */
  referenced: number;
  /** Unused files kept because their window has not ended. */
  waiting: number;
}

/** The path under the uploads folder an image URL points at (`markers/a-0.webp`), or undefined. */
export function uploadPathOf(url: string): string | undefined {
  const pathPart = url.split(/[?#]/, 1)[0];
  if (!pathPart.startsWith('/uploads/')) return undefined;
  try {
    return decodeURIComponent(pathPart.slice('/uploads/'.length));
  } catch {
    return pathPart.slice('/uploads/'.length);
  }
}

/** The marker uid in an upload's file name (`<uid>-<index>-<id>.<ext>`, older `<uid>-<index>.<ext>[.<pid>.<id>.tmp]`), or undefined. */
export function markerUidOfUpload(name: string): string | undefined {
  const match = /^(.+)-\d{1,3}(?:-[0-9a-f]{16})?\.(png|jpg|webp)(\..*\.tmp)?$/.exec(name);
  return match?.[1];
}

/** Every upload path that a stored marker's images name. */
async function referencedUploads(db: Db): Promise<Set<string>> {
  const rows = await db.kysely
    .selectFrom('markers')
    .select('imgs')
    .where('imgs', 'like', `%/uploads/${MARKER_UPLOADS}/%`)
    .execute();
  const used = new Set<string>();
  for (const row of rows) {
    let imgs: unknown;
    try {
      imgs = JSON.parse(row.imgs);
    } catch {
      continue;
    }
    if (!Array.isArray(imgs)) continue;
    for (const image of imgs) {
      const url = (image as { img?: unknown } | null)?.img;
      const file = typeof url === 'string' ? uploadPathOf(url) : undefined;
      if (file) used.add(file);
    }
  }
  return used;
}

/** Whether a stored marker's images name the upload `name` now (one query, for the re-check). */
async function namedByAMarker(db: Db, name: string): Promise<boolean> {
  const needle = `%/uploads/${MARKER_UPLOADS}/${name.replace(/[\\%]/g, '\\$&')}%`;
  const row = await db.kysely.selectFrom('markers').select('uid').where(sql<boolean>`imgs like ${needle} escape '\\'`).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Epoch ms of the newest change that could have used `name`: the newest history row of its
 * marker uid, else of any history row that names the file; undefined when none does.
 */
async function lastUseOf(db: Db, name: string): Promise<number | undefined> {
  const uid = markerUidOfUpload(name);
  if (uid) {
    const row = await db.kysely.selectFrom('marker_history').select((eb) => eb.fn.max('at').as('at')).where('marker_uid', '=', uid).executeTakeFirst();
    if (row?.at) return Date.parse(row.at);
  }
  const needle = `%/uploads/${MARKER_UPLOADS}/${name.replace(/[\\%]/g, '\\$&')}%`;
  const like = (column: 'before' | 'after') => sql<boolean>`${sql.ref(column)} like ${needle} escape '\\'`;
  const row = await db.kysely
    .selectFrom('marker_history')
    .select((eb) => eb.fn.max('at').as('at'))
    .where((eb) => eb.or([like('before'), like('after')]))
    .executeTakeFirst();
  return row?.at ? Date.parse(row.at) : undefined;
}

/** One pass: deletes the unused uploads whose window has ended. */
export async function sweepUploads(options: SweepOptions): Promise<SweepResult> {
  const now = (options.now ?? Date.now)();
  const cutoff = now - options.windowMs;
  const dir = path.join(options.uploadsDir, MARKER_UPLOADS);
  const result: SweepResult = { removed: [], referenced: 0, waiting: 0 };
  let names: string[];
  try {
    names = (await fs.readdir(dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw err;
  }
  if (names.length === 0) return result;
  const used = await referencedUploads(options.db);
  for (const name of names) {
    if (used.has(`${MARKER_UPLOADS}/${name}`)) {
      result.referenced++;
      continue;
    }
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat) continue;
    const lastUse = Math.max(stat.mtimeMs, (await lastUseOf(options.db, name)) ?? -Infinity);
    if (lastUse > cutoff) {
      result.waiting++;
      continue;
    }
    // Read again right before deleting: an undo (an add of the same uid) may have landed.
    const again = await lastUseOf(options.db, name);
    if (again !== undefined && again > cutoff) {
      result.waiting++;
      continue;
    }
    if (await namedByAMarker(options.db, name)) {
      result.referenced++;
      continue;
    }
    try {
      await fs.unlink(file);
      result.removed.push(name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return result;
}

export interface UploadSweeperOptions extends SweepOptions {
  /** Time between passes (default hourly); the first pass runs after `firstDelayMs` (default 1 minute). */
  intervalMs?: number;
  firstDelayMs?: number;
  /** Hears each pass that removed something, and each that failed. */
  onSweep?: (result: SweepResult) => void;
  onError?: (error: unknown) => void;
}

/** Sweeps in the background until the returned stop function is called (timers are unref'd). */
export function startUploadSweeper(options: UploadSweeperOptions): () => Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweepUploads(options)
        .then((result) => {
          if (result.removed.length > 0) options.onSweep?.(result);
        })
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          running = undefined;
          schedule(options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
        });
    }, ms);
    timer.unref?.();
  };
  schedule(options.firstDelayMs ?? 60_000);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

/**
 * The admin editor's marker calls (docs/EDITOR.md "API client"; the server side is described in
 * docs/SERVER.md "Versions, history and live updates"). Every marker carries the server's
 * `version`; an update or delete sends the version it was based on, and a 409 comes back as
 * `ConflictError` with the marker as it is now. Other failures are `ApiError`s.
 */
import { markerSchema, type Marker } from '../domain/marker';
import { ApiError, apiUrl, getJson, sendJson } from './client';

/** A 409: someone else changed (or took the uid of) the marker. `current` is the stored marker, when the server sent a valid one. */
export class ConflictError extends ApiError {
  readonly current: Marker | null;

  constructor(url: string, message: string, current: Marker | null, body?: unknown) {
    super(url, 409, 'conflict', message, body);
    this.name = 'ConflictError';
    this.current = current;
  }
}

export type HistoryAction = 'add' | 'update' | 'delete';

/** One change of one marker, newest first in `fetchMarkerHistory`. */
export interface HistoryEntry {
  id: number;
  uid: string;
  map: string;
  action: HistoryAction;
  /** The admin who made it; null for changes made outside the site (scripts). */
  user: string | null;
  /** ISO 8601 UTC. */
  at: string;
  /** The marker's version after the change; for a delete, the deleted version + 1. */
  version: number;
  before: Marker | null;
  after: Marker | null;
}

/** A marker to add: the uid is optional (the server makes one), the version is the server's. */
export type NewMarker = Omit<Marker, 'uid' | 'version'> & { uid?: string; version?: number };

/** The server's limit on one image, decoded (server/routes/admin.ts MAX_UPLOAD_BYTES). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface UploadMarkerImageOptions {
  /** The marker's uid. */
  uid: string;
  /** Image slot: an existing one is replaced, `imgs.length` appends one. */
  index: number;
  /**
   * The image the upload is meant to replace: its URL as the page shows it at `index`; null
   * for a new image at the end. Left out: the body names none (the server then only adds a new
   * image, as for an older page). Another image there now: ConflictError, nothing replaced.
   */
  replaces?: string | null;
  map: string;
  /** PNG, JPEG or WebP, at most 5 MB. */
  file: Blob;
  /** Fraction of the request sent, 0 to 1 (1 once the server answered). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

const MARKER_PATH = '/api/be/admin/marker';
const UPLOAD_PATH = '/api/be/admin/maps/marker/upload/base64';

function markerOrNull(value: unknown): Marker | null {
  const parsed = markerSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function markerFrom(path: string, value: unknown): Marker {
  const marker = markerOrNull(value);
  if (!marker) throw new ApiError(apiUrl(path), 200, 'bad_marker', 'The server sent a marker that is not valid');
  return marker;
}

/** A 409 ApiError becomes a ConflictError carrying the server's current marker. */
function conflictOr(error: unknown): unknown {
  if (error instanceof ApiError && !(error instanceof ConflictError) && error.status === 409) {
    return new ConflictError(error.url, error.message, markerOrNull((error.body as { marker?: unknown } | undefined)?.marker), error.body);
  }
  return error;
}

async function withConflicts<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw conflictOr(error);
  }
}

/** Adds a marker (a client-chosen uid is kept; a taken uid → ConflictError). Answers the stored marker, version 1 or more. */
export async function addMarker(marker: NewMarker): Promise<Marker> {
  const path = `${MARKER_PATH}/add`;
  const body = await withConflicts(() => sendJson<{ marker?: unknown }>(path, 'POST', marker));
  return markerFrom(path, body?.marker);
}

/**
 * Saves a whole marker. With `marker.version` (the version the edit was based on) a newer stored
 * version throws ConflictError; without it the save is unconditional. Answers the stored marker
 * (version + 1). 404 (the marker is gone) comes back as ApiError with code 'not_found'.
 */
export async function updateMarker(marker: Marker): Promise<Marker> {
  const path = `${MARKER_PATH}/update`;
  const body = await withConflicts(() => sendJson<{ marker?: unknown }>(path, 'POST', marker));
  return markerFrom(path, body?.marker);
}

/** Deletes a marker; with `version`, only that version (else ConflictError). Answers the version of the deletion. */
export async function deleteMarker(uid: string, version?: number): Promise<{ version: number }> {
  const path = `${MARKER_PATH}/${encodeURIComponent(uid)}${version !== undefined ? `?version=${version}` : ''}`;
  const body = await withConflicts(() => sendJson<{ version?: unknown }>(path, 'DELETE'));
  if (typeof body?.version !== 'number') throw new ApiError(apiUrl(path), 200, 'bad_response', 'The server did not say which version it deleted');
  return { version: body.version };
}

/** The marker's changes, newest first (at most 100), also for a deleted marker. */
export async function fetchMarkerHistory(uid: string, signal?: AbortSignal): Promise<HistoryEntry[]> {
  const path = `${MARKER_PATH}/${encodeURIComponent(uid)}/history`;
  const body = await getJson<{ history?: unknown }>(path, { signal, cache: 'no-store' });
  if (!Array.isArray(body?.history)) throw new ApiError(apiUrl(path), 200, 'bad_response', 'The server sent no history list');
  return body.history as HistoryEntry[];
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled', 'AbortError');
}

/** The file as a data URL (FileReader), cancelled with `signal`. */
export function readAsDataUrl(file: Blob, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const reader = new FileReader();
    const onAbort = () => reader.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    reader.onload = () => {
      done();
      resolve(String(reader.result));
    };
    reader.onerror = () => {
      done();
      reject(new ApiError('', 0, 'read_failed', `Could not read the file (${reader.error?.message ?? 'read error'})`));
    };
    reader.onabort = () => {
      done();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    reader.readAsDataURL(file);
  });
}

interface XhrResult {
  status: number;
  statusText: string;
  text: string;
}

/** POSTs JSON text with XMLHttpRequest, for its upload progress events. */
function postWithProgress(url: string, body: string, onProgress: ((fraction: number) => void) | undefined, signal: AbortSignal | undefined): Promise<XhrResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const finish = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', url);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.setRequestHeader('accept', 'application/json');
    let last = -1;
    xhr.upload.addEventListener('progress', (event) => {
      if (!event.lengthComputable || event.total <= 0) return;
      // Never report 1 before the server answered: the last byte sent is not a saved image.
      const fraction = Math.min(0.99, event.loaded / event.total);
      if (fraction > last) {
        last = fraction;
        onProgress?.(fraction);
      }
    });
    xhr.addEventListener('load', () => {
      finish();
      resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
    });
    xhr.addEventListener('error', () => {
      finish();
      reject(new ApiError(url, 0, 'network', 'Could not reach the server (the upload failed)'));
    });
    xhr.addEventListener('timeout', () => {
      finish();
      reject(new ApiError(url, 0, 'network', 'The upload timed out'));
    });
    xhr.addEventListener('abort', () => {
      finish();
      reject(abortError());
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Uploads one image of a marker: the file is read as a data URL and sent as JSON with
 * XMLHttpRequest (for progress), naming the image it replaces. Answers the updated marker and
 * the image's URL; another image at that place now (another admin's change) is a ConflictError
 * with the stored marker. A file the server would refuse for its size fails here, before any upload.
 */
export async function uploadMarkerImage({ uid, index, map, file, onProgress, signal, replaces }: UploadMarkerImageOptions): Promise<{ marker: Marker; fileUrl: string }> {
  const url = apiUrl(UPLOAD_PATH);
  if (!Number.isInteger(index) || index < 0) throw new ApiError(url, 400, 'bad_index', `image index must be a whole number ≥ 0, got ${index}`);
  if (file.size > MAX_IMAGE_BYTES) throw new ApiError(url, 413, 'too_large', `The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  const dataUrl = await readAsDataUrl(file, signal);
  // A Blob without an image type reads as application/octet-stream: send the bare base64 and
  // let the server recognise the image by its bytes.
  const base64 = /^data:image\//i.test(dataUrl) ? dataUrl : dataUrl.slice(dataUrl.indexOf(',') + 1);
  onProgress?.(0);
  const request = { uid: `${uid}-${index}`, map, base64, ...(replaces !== undefined ? { replaces } : {}) };
  const result = await postWithProgress(url, JSON.stringify(request), onProgress, signal);
  const body = parseJson(result.text) as { error?: unknown; message?: unknown; marker?: unknown; fileUrl?: unknown } | undefined;
  if (result.status < 200 || result.status >= 300) {
    const code = typeof body?.error === 'string' ? body.error : `http_${result.status}`;
    const message = typeof body?.message === 'string' ? body.message : result.statusText || `HTTP ${result.status}`;
    throw conflictOr(new ApiError(url, result.status, code, message, body));
  }
  if (body === undefined) throw new ApiError(url, result.status, 'bad_json', 'The server sent a response that is not valid JSON');
  const marker = markerFrom(UPLOAD_PATH, body.marker);
  if (typeof body.fileUrl !== 'string') throw new ApiError(url, result.status, 'bad_response', 'The server did not say where the image is');
  onProgress?.(1);
  return { marker, fileUrl: body.fileUrl };
}

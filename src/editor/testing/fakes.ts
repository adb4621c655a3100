/**
 * Test doubles for the editor (used by src/editor and src/state/editor tests): an in-memory
 * admin API that versions markers like the server does (409 with the current marker, 404
 * when gone, versions continuing after a delete), and a sink that records what was shown.
 */
import { ConflictError } from '../../api/admin';
import { ApiError } from '../../api/client';
import type { Marker } from '../../domain/marker';
import type { EditorApi, MarkerHistoryEntry, MarkerSink } from '../commands';

type Op = 'add' | 'update' | 'delete' | 'upload' | 'history';

export interface Call {
  op: Op;
  uid: string;
  version?: number;
  body?: Marker;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export function marker(uid: string, patch: Partial<Marker> = {}): Marker {
  return {
    uid,
    map: 'customs',
    category: 'Loot',
    subCategory: 'Safe',
    level: 1,
    geometry: { x: 100, y: 200 },
    name: '',
    desc: '',
    imgs: [],
    name_l10n: {},
    desc_l10n: {},
    itemsUid: [],
    ...patch,
  };
}

export function offline(): ApiError {
  return new ApiError('/api/be/admin/marker', 0, 'network', 'Could not reach the server (offline)');
}

export function fakeServer() {
  const stored = new Map<string, Marker>();
  /** Last version per uid, deletes included (the server continues the sequence). */
  const lastVersion = new Map<string, number>();
  const calls: Call[] = [];
  const failures: { op: Op; error: Error; after?: boolean }[] = [];
  let gate: Promise<void> | null = null;
  let openGate: () => void = () => {};

  function nextVersion(uid: string): number {
    const version = (lastVersion.get(uid) ?? 0) + 1;
    lastVersion.set(uid, version);
    return version;
  }

  /** The first queued failure for `op`; `after`: the change is made, then the answer is lost. */
  function takeFailure(op: Op, after: boolean): Error | null {
    const index = failures.findIndex((f) => f.op === op && Boolean(f.after) === after);
    if (index < 0) return null;
    return failures.splice(index, 1)[0].error;
  }

  async function enter(op: Op): Promise<void> {
    await Promise.resolve();
    if (gate) await gate;
    const error = takeFailure(op, false);
    if (error) throw error;
  }

  function leave(op: Op): void {
    const error = takeFailure(op, true);
    if (error) throw error;
  }

  const api: EditorApi = {
    async addMarker(body) {
      calls.push({ op: 'add', uid: body.uid, body: copy(body) });
      await enter('add');
      const current = stored.get(body.uid);
      if (current) throw new ConflictError('/api/be/admin/marker/add', 'uid taken', copy(current));
      const saved = { ...copy(body), version: nextVersion(body.uid) };
      stored.set(body.uid, saved);
      leave('add');
      return copy(saved);
    },
    async updateMarker(body) {
      calls.push({ op: 'update', uid: body.uid, version: body.version, body: copy(body) });
      await enter('update');
      const current = stored.get(body.uid);
      if (!current) throw new ApiError('/api/be/admin/marker/update', 404, 'not_found', 'Marker not found');
      if (body.version !== undefined && body.version !== current.version) throw new ConflictError('/api/be/admin/marker/update', 'changed meanwhile', copy(current));
      const saved = { ...copy(body), version: nextVersion(body.uid) };
      stored.set(body.uid, saved);
      leave('update');
      return copy(saved);
    },
    async deleteMarker(uid, version) {
      calls.push({ op: 'delete', uid, version });
      await enter('delete');
      const current = stored.get(uid);
      if (!current) throw new ApiError(`/api/be/admin/marker/${uid}`, 404, 'not_found', 'Marker not found');
      if (version !== undefined && version !== current.version) throw new ConflictError(`/api/be/admin/marker/${uid}`, 'changed meanwhile', copy(current));
      stored.delete(uid);
      const deleted = nextVersion(uid);
      leave('delete');
      return { version: deleted };
    },
    async uploadMarkerImage({ uid, index, file, ...target }) {
      calls.push({ op: 'upload', uid });
      await enter('upload');
      const current = stored.get(uid);
      if (!current) throw new ApiError('/api/be/admin/maps/marker/upload/base64', 404, 'not_found', 'Marker not found');
      // As the server: an upload naming the image it replaces (null: a new one, at the end) finds it there, else 409.
      if ('replaces' in target && (index < current.imgs.length ? current.imgs[index].img : index === current.imgs.length ? null : undefined) !== target.replaces) {
        throw new ConflictError('/api/be/admin/maps/marker/upload/base64', `marker "${uid}" was changed meanwhile: the upload was meant for image ${index}`, copy(current));
      }
      const imgs = [...current.imgs];
      const img = { img: `/img/markers/${uid}-${index}-${file.name}`, name: '', desc: '' };
      if (index < imgs.length) imgs[index] = img;
      else imgs.push(img);
      const saved = { ...current, imgs, version: nextVersion(uid) };
      stored.set(uid, saved);
      leave('upload');
      return { marker: copy(saved), fileUrl: img.img };
    },
    async fetchMarkerHistory(uid): Promise<MarkerHistoryEntry[]> {
      calls.push({ op: 'history', uid });
      await enter('history');
      return [{ id: 1, uid, map: 'customs', action: 'add', user: 'ann', at: '2024-01-01T00:00:00Z', version: 1, before: null, after: stored.get(uid) ?? null }];
    },
  };

  return {
    api,
    stored,
    calls,
    /** Only the calls that change something (no history reads). */
    writes: () => calls.filter((c) => c.op !== 'history'),
    /** The next `op` fails with `error` (after: the server made the change, the answer was lost). */
    failNext(op: Op, error: Error = offline(), after = false) {
      failures.push({ op, error, after });
    },
    /** Holds every request until the returned function is called. */
    hold(): () => void {
      gate = new Promise<void>((resolve) => (openGate = resolve));
      return () => {
        gate = null;
        openGate();
      };
    },
    /** Another admin's write, straight into the store. */
    seed(m: Marker): Marker {
      const saved = { ...copy(m), version: nextVersion(m.uid) };
      stored.set(m.uid, saved);
      return copy(saved);
    },
    remove(uid: string): number {
      stored.delete(uid);
      return nextVersion(uid);
    },
  };
}

export function fakeSink(initial: Marker[] = []) {
  const markers = new Map<string, Marker>(initial.map((m) => [m.uid, copy(m)]));
  const log: string[] = [];
  const sink: MarkerSink = {
    async get(uid) {
      const m = markers.get(uid);
      return m ? copy(m) : null;
    },
    async upsert(m) {
      log.push(`upsert ${m.uid} v${m.version ?? '-'}`);
      markers.set(m.uid, copy(m));
    },
    async remove(uid) {
      log.push(`remove ${uid}`);
      markers.delete(uid);
    },
  };
  return { sink, markers, log };
}

/** Lets queued promise callbacks run. */
export async function flush(times = 10): Promise<void> {
  for (let i = 0; i < times; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

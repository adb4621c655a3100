/**
 * The main thread's handle on the markers worker. The marker list lives in the worker;
 * this side sends it the raw bytes (transferred) and gets typed arrays and index lists back,
 * uids and labels packed as one string each (unpacked here: workers/markers-api.ts).
 * If the worker cannot start or crashes, every pending and later call rejects with a clear
 * error instead of waiting forever.
 */
import * as Comlink from 'comlink';
import { fetchCompactMarkers, fetchMarker, listAskedAt } from '../../api/markers';
import { createChangeJournal } from '../../domain/list-replay';
import type { Language, Marker } from '../../domain/marker';
import { unpackColumns, unpackStrings } from '../../domain/marker-columns';
import type { MarkerFilterQuery, MarkerFindQuery, MarkerFindResult, MarkerLoadResult, MarkerRemoveResult, MarkerSearchHit, MarkerUpsertResult } from '../../../workers/markers';
import type { MarkersWorkerApi } from '../../../workers/markers-api';

export interface MarkerSource {
  /**
   * Loads a list (it replaces the worker's). A list of the same map read again by
   * fetchCompactMarkers gets back on top the changes (`upsert`, `remove`) made after it was asked
   * for, less a margin (src/domain/list-replay.ts): a live change heard while it was on its way
   * is never overwritten by the older list.
   */
  load(buffer: ArrayBuffer, mapId: string, lang: Language): Promise<MarkerLoadResult>;
  filter(query: MarkerFilterQuery): Promise<Uint32Array>;
  /**
   * Asks for the filter of the list just loaded before anyone needs it: the page calls it as the
   * list arrives, while the engine is still starting, and the engine's first `filter` with the
   * same query takes this answer instead of waiting for another trip to the worker (30–70 ms of
   * the first second on a busy page). Any other call (a `filter` with another query, a load, an
   * edit) drops it.
   */
  prefilter(query: MarkerFilterQuery): void;
  /**
   * The full marker, or null when no marker on the map has that uid. After a compact list the
   * worker has only what the map draws: the full marker is read from the server once
   * (`GET /api/be/markers/one`) and kept in the worker (an edit or a live change replaces it).
   */
  get(uid: string): Promise<Marker | null>;
  /** Labels per slot in a language (a compact list's labels come from that language's compact list). */
  relabel(lang: Language): Promise<string[]>;
  /**
   * One marker in (an admin edit or a live change): validated in the worker; a known uid keeps
   * its slot, a new one is appended. Hand `index`, `row`, `passes` to engine.upsertMarker.
   * Rejects with the worker's MarkerListError message for an invalid marker or another map's.
   */
  upsert(raw: unknown, lang: Language): Promise<MarkerUpsertResult>;
  /** Empties a marker's slot (hand `index` to engine.removeMarker); null for an unknown uid. */
  remove(uid: string): Promise<MarkerRemoveResult | null>;
  /**
   * Markers of the loaded map whose label (as drawn, in the current language) contains `text`,
   * case-insensitively, best first, at most `limit`; filters are not applied (the left panel's
   * Find a marker shows a hidden one). Searched in the worker: the page never holds the labels.
   */
  search(text: string, limit: number): Promise<MarkerSearchHit[]>;
  /**
   * Find a marker's search: by label, or by the subcategories, quests and categories the text
   * names (the page knows their names in its language), each hit with its position and nearest
   * named extraction, and how many match in all. In the worker, as `search`.
   */
  find(query: MarkerFindQuery): Promise<MarkerFindResult>;
  dispose(): void;
}

/** What the source needs of a Worker (a real one in the browser, a fake in tests). */
export type WorkerLike = Comlink.Endpoint & { terminate(): void };

export class MarkerWorkerError extends Error {
  /** 'closed': the page disposed the worker (expected while leaving); 'failed': it crashed or never started. */
  readonly reason: 'closed' | 'failed';

  constructor(reason: 'closed' | 'failed', message: string) {
    super(message);
    this.name = 'MarkerWorkerError';
    this.reason = reason;
  }
}

/** True for calls cut short because the page closed the worker: nothing to report. */
export function isWorkerClosed(error: unknown): boolean {
  return error instanceof MarkerWorkerError && error.reason === 'closed';
}

function spawnMarkersWorker(): WorkerLike {
  return new Worker(new URL('../../../workers/markers.worker.ts', import.meta.url), { type: 'module', name: 'markers' });
}

/** How the source reads from the server (tests pass fakes). */
export interface MarkerSourceFetch {
  /** One full marker, or null for an unknown uid. */
  marker(uid: string): Promise<unknown>;
  /** A map's compact list in a language, as raw bytes. */
  compact(mapId: string, lang: Language): Promise<ArrayBuffer>;
}

const serverFetch: MarkerSourceFetch = {
  marker: (uid) => fetchMarker(uid),
  compact: (mapId, lang) => fetchCompactMarkers(mapId, lang),
};

export function createMarkerSource(spawn: () => WorkerLike = spawnMarkersWorker, fetchers: MarkerSourceFetch = serverFetch): MarkerSource {
  const worker = spawn();
  const remote = Comlink.wrap<MarkersWorkerApi>(worker);
  let rejectAll: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    rejectAll = reject;
  });
  failed.catch(() => undefined); // observed through `guard`; never an unhandled rejection
  const onError = (event: Event) => {
    const detail = (event as ErrorEvent).message;
    rejectAll(new MarkerWorkerError('failed', `The marker worker stopped${detail ? `: ${detail}` : ' (it could not be started)'}`));
  };
  worker.addEventListener('error', onError);
  worker.addEventListener('messageerror', onError);
  let closed = false;
  const guard = <T>(call: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new MarkerWorkerError('closed', 'The marker worker was closed'));
    try {
      return Promise.race([failed, call()]);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  /** The map and format of the list loaded last (a compact list relabels from the server). */
  let loaded: { mapId: string; format: 'full' | 'compact' } | null = null;
  /** The answer of `prefilter`, for the first `filter` with the same query. */
  let early: { key: string; indices: Promise<Uint32Array> } | null = null;
  const queryKey = (query: MarkerFilterQuery) => JSON.stringify(query);
  /** Each marker's latest upsert / remove and when: put back on a list read again (list-replay.ts). */
  const journal = createChangeJournal();
  /** Full markers being read from the server, by uid: one request each however many ask. */
  const reading = new Map<string, Promise<Marker | null>>();

  const readFull = (uid: string): Promise<Marker | null> => {
    let pending = reading.get(uid);
    if (!pending) {
      pending = fetchers
        .marker(uid)
        .then((raw) => (raw === null ? null : (remote.remember(raw) as Promise<Marker | null>)))
        .finally(() => reading.delete(uid));
      reading.set(uid, pending);
    }
    return pending;
  };

  return {
    load: (buffer, mapId, lang) =>
      guard(async () => {
        early = null;
        // Read before the bytes are transferred; a list not read by fetchCompactMarkers (a page's
        // first, another map's) gets nothing put back.
        const askedAt = listAskedAt(buffer);
        if (loaded?.mapId !== mapId) journal.clear();
        const replay = askedAt === undefined ? [] : journal.replayFor(askedAt);
        const packed = await remote.load(Comlink.transfer(buffer, [buffer]), mapId, lang, replay);
        if (askedAt !== undefined) journal.settled(askedAt);
        loaded = { mapId, format: packed.format };
        return { ...packed, columns: unpackColumns(packed.columns) };
      }),
    filter: (query) => {
      const taken = early;
      early = null;
      if (taken && taken.key === queryKey(query)) return taken.indices;
      return guard(() => remote.filter(query));
    },
    prefilter: (query) => {
      const indices = guard(() => remote.filter(query));
      indices.catch(() => undefined); // a failure reaches the `filter` that takes it
      early = { key: queryKey(query), indices };
    },
    get: (uid) =>
      guard(async () => {
        const found = (await remote.lookup(uid)) as Marker | 'fetch' | null;
        return found === 'fetch' ? readFull(uid) : found;
      }),
    relabel: (lang) =>
      guard(async () => {
        let compact: ArrayBuffer | undefined;
        if (loaded?.format === 'compact') {
          try {
            compact = await fetchers.compact(loaded.mapId, lang);
          } catch (error) {
            // Offline: markers read in full are relabelled, the others keep their labels.
            console.warn('raidmap: reading the marker labels in the new language failed', error);
          }
        }
        return unpackStrings(await (compact ? remote.relabel(lang, Comlink.transfer(compact, [compact])) : remote.relabel(lang)));
      }),
    upsert: (raw, lang) => {
      early = null;
      // Noted as it is sent: a load called after it (the worker answers in order) puts it back.
      const uid = (raw as { uid?: unknown } | null)?.uid;
      if (typeof uid === 'string' && !closed) journal.record(uid, raw, performance.now());
      return guard(() => remote.upsert(raw, lang));
    },
    remove: (uid) => {
      early = null;
      if (!closed) journal.record(uid, null, performance.now());
      return guard(() => remote.remove(uid));
    },
    search: (text, limit) => guard(() => remote.search(text, limit)),
    find: (query) => guard(() => remote.find(query)),
    dispose: () => {
      if (closed) return;
      closed = true;
      worker.removeEventListener('error', onError);
      worker.removeEventListener('messageerror', onError);
      rejectAll(new MarkerWorkerError('closed', 'The marker worker was closed'));
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

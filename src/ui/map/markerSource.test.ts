import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { encodeCompactList } from '../../domain/compact-markers';
import { noteListAskedAt } from '../../api/markers';
import { REPLAY_MARGIN_MS } from '../../domain/list-replay';
import { markerSchema } from '../../domain/marker';
import { createMarkerStore } from '../../../workers/markers';
import { markersWorkerApi } from '../../../workers/markers-api';
import { createMarkerSource, isWorkerClosed, MarkerWorkerError, type WorkerLike } from './markerSource';

/** A worker whose other end is a MessageChannel port serving the real store. */
function channelWorker(): WorkerLike & { port: MessagePort; terminated: boolean; fail(message: string): void } {
  const { port1, port2 } = new MessageChannel();
  const store = createMarkerStore();
  Comlink.expose(markersWorkerApi(store), port2);
  const errors = new EventTarget();
  const worker = {
    port: port2,
    terminated: false,
    postMessage: (message: unknown, transfer?: Transferable[]) => port1.postMessage(message, transfer ?? []),
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject) =>
      type === 'message' ? port1.addEventListener(type, listener) : errors.addEventListener(type, listener),
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject) =>
      type === 'message' ? port1.removeEventListener(type, listener) : errors.removeEventListener(type, listener),
    start: () => port1.start(),
    terminate: () => {
      worker.terminated = true;
      port1.close();
      port2.close();
    },
    fail: (message: string) => {
      const event = new Event('error');
      Object.defineProperty(event, 'message', { value: message });
      errors.dispatchEvent(event);
    },
  };
  return worker as never;
}

const bytes = (markers: unknown[]) => new TextEncoder().encode(JSON.stringify({ markers })).buffer as ArrayBuffer;
const safe = { uid: 's1', map: 'lab', category: 'Loot', subCategory: 'Safe', level: 1, geometry: { x: 1, y: 2 } };

describe('marker source', () => {
  it('loads through the worker protocol and transfers the input buffer', async () => {
    const worker = channelWorker();
    const source = createMarkerSource(() => worker);
    const buffer = bytes([safe]);
    const result = await source.load(buffer, 'lab', 'en');
    expect(buffer.byteLength).toBe(0); // transferred, not copied
    expect(result.count).toBe(1);
    expect(Array.from(result.columns.x)).toEqual([1]);
    expect(Array.from(await source.filter({ hiddenCategories: [], hiddenSubCategories: [] }))).toEqual([0]);
    expect((await source.get('s1'))?.subCategory).toBe('Safe');
    source.dispose();
    expect(worker.terminated).toBe(true);
  });

  it('upserts and removes one marker through the worker protocol', async () => {
    const source = createMarkerSource(() => channelWorker());
    await source.load(bytes([safe]), 'lab', 'en');
    const added = await source.upsert({ ...safe, uid: 's2', geometry: { x: 5, y: 6 } }, 'en');
    expect(added).toMatchObject({ index: 1, row: { uid: 's2', x: 5, y: 6, label: 'Safe' }, counts: { Safe: 2 }, passes: true });
    expect((await source.upsert({ ...safe, level: 2 }, 'en')).index).toBe(0);
    await expect(source.upsert({ ...safe, map: 'customs' }, 'en')).rejects.toThrow(/on map customs, not lab/);
    expect(await source.remove('s1')).toEqual({ index: 0, counts: { Safe: 1 } });
    expect(await source.remove('s1')).toBeNull();
    expect(Array.from(await source.filter({ hiddenCategories: [], hiddenSubCategories: [] }))).toEqual([1]);
    source.dispose();
  });

  it('searches the labels in the worker', async () => {
    const source = createMarkerSource(() => channelWorker());
    await source.load(bytes([safe, { ...safe, uid: 's2', name: 'Dorm safe' }]), 'lab', 'en');
    expect(await source.search('SAFE', 8)).toEqual([
      { uid: 's1', label: 'Safe', subCategory: 'Safe', level: 1 },
      { uid: 's2', label: 'Dorm safe', subCategory: 'Safe', level: 1 },
    ]);
    source.dispose();
  });

  it('rejects pending and later calls when the worker fails', async () => {
    const worker = channelWorker();
    worker.port.close(); // the worker never answers
    const source = createMarkerSource(() => worker);
    const pending = source.load(bytes([safe]), 'lab', 'en');
    worker.fail('SyntaxError in markers.worker.js');
    await expect(pending).rejects.toThrow(MarkerWorkerError);
    await expect(pending).rejects.toThrow(/SyntaxError in markers.worker.js/);
    await expect(source.filter({ hiddenCategories: [], hiddenSubCategories: [] })).rejects.toThrow(/marker worker stopped/);
    expect(isWorkerClosed(await pending.catch((e: unknown) => e))).toBe(false);
  });

  it('rejects calls after dispose instead of hanging', async () => {
    const source = createMarkerSource(() => channelWorker());
    source.dispose();
    const error = await source.relabel('en').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarkerWorkerError);
    expect(isWorkerClosed(error)).toBe(true);
  });

  it('reads a full marker from the server once behind a compact list, and relabels from the server', async () => {
    const full = markerSchema.parse({ ...safe, name: 'Safe one', name_l10n: { ru: 'Сейф' }, desc: 'Behind the desk' });
    const compact = (lang: 'en' | 'ru') => new TextEncoder().encode(JSON.stringify(encodeCompactList([full], 'lab', lang))).buffer as ArrayBuffer;
    const asked: string[] = [];
    const source = createMarkerSource(() => channelWorker(), {
      marker: async (uid) => {
        asked.push(`one ${uid}`);
        await new Promise((r) => setTimeout(r, 5));
        return uid === 's1' ? full : null;
      },
      compact: async (mapId, lang) => {
        asked.push(`compact ${mapId} ${lang}`);
        return compact(lang);
      },
    });
    const result = await source.load(compact('en'), 'lab', 'en');
    expect(result.format).toBe('compact');
    const [a, b] = await Promise.all([source.get('s1'), source.get('s1')]);
    expect(a).toEqual(full);
    expect(b).toEqual(full);
    expect(await source.get('s1')).toEqual(full);
    expect(await source.get('unknown')).toBeNull();
    expect(asked).toEqual(['one s1']); // one request for two readers, then the worker's copy
    expect(await source.relabel('ru')).toEqual(['Сейф']);
    expect(asked).toEqual(['one s1', 'compact lab ru']);
    source.dispose();
  });

  it('answers the first filter from a prefilter with the same query, without another trip to the worker', async () => {
    const worker = channelWorker();
    const sent: string[] = [];
    const post = worker.postMessage;
    worker.postMessage = (message: unknown, transfer?: Transferable[]) => {
      const m = message as { type?: string; path?: string[] };
      if (m?.type === 'APPLY') sent.push(m.path?.join('.') ?? '');
      post(message, transfer);
    };
    const source = createMarkerSource(() => worker);
    const other = { ...safe, uid: 's2', category: 'Extractions', subCategory: 'PMC Extraction' };
    await source.load(bytes([safe, other]), 'lab', 'en');
    const query = { hiddenCategories: ['Extractions'], hiddenSubCategories: [] };
    source.prefilter(query);
    expect(Array.from(await source.filter({ hiddenCategories: ['Extractions'], hiddenSubCategories: [] }))).toEqual([0]);
    expect(sent).toEqual(['load', 'filter']);
    // Used once: the next filter asks the worker again.
    expect(Array.from(await source.filter(query))).toEqual([0]);
    expect(sent).toEqual(['load', 'filter', 'filter']);
    source.dispose();
  });

  it('drops a prefilter whose query changed, and one made stale by an edit', async () => {
    const worker = channelWorker();
    const source = createMarkerSource(() => worker);
    await source.load(bytes([safe]), 'lab', 'en');
    source.prefilter({ hiddenCategories: ['Loot'], hiddenSubCategories: [] });
    // Another query: the worker answers it (the prefilter's answer would hide the safe).
    expect(Array.from(await source.filter({ hiddenCategories: [], hiddenSubCategories: [] }))).toEqual([0]);
    source.prefilter({ hiddenCategories: [], hiddenSubCategories: [] });
    await source.upsert({ ...safe, uid: 's3' }, 'en');
    // After the edit the answer includes the new marker.
    expect(Array.from(await source.filter({ hiddenCategories: [], hiddenSubCategories: [] }))).toEqual([0, 1]);
    source.dispose();
  });

  describe('a list read again (the reload after the live feed came back)', () => {
    const all = { hiddenCategories: [], hiddenSubCategories: [] };
    const moved = { ...safe, geometry: { x: 9, y: 9 }, version: 2 };
    const added = { ...safe, uid: 's3', geometry: { x: 3, y: 3 }, version: 1 };
    const gone = { ...safe, uid: 's2', geometry: { x: 4, y: 4 } };
    /** The list as the server had it before the live changes: s1 at (1, 2), s2 present, no s3. */
    const oldList = (askedAt?: number) => {
      const buffer = bytes([safe, gone]);
      if (askedAt !== undefined) noteListAskedAt(buffer, askedAt);
      return buffer;
    };
    const drawn = async (source: ReturnType<typeof createMarkerSource>, result: { columns: { uids: string[]; x: ArrayLike<number> } }) => {
      const out: Record<string, number> = {};
      for (const i of await source.filter(all)) out[result.columns.uids[i]] = result.columns.x[i];
      return out;
    };

    it('keeps the live changes heard while it was on its way: a move, an add and a removal', async () => {
      const source = createMarkerSource(() => channelWorker());
      await source.load(oldList(), 'lab', 'en');
      // The reload is asked for, then the live changes arrive before its (older) list does.
      const askedAt = performance.now();
      await source.upsert(moved, 'en');
      await source.upsert(added, 'en');
      await source.remove('s2');
      const result = await source.load(oldList(askedAt), 'lab', 'en');
      expect(await drawn(source, result)).toEqual({ s1: 9, s3: 3 });
      expect(result.counts).toEqual({ Safe: 2 });
      expect((await source.get('s1'))?.version).toBe(2);
      source.dispose();
    });

    it('keeps a change heard just before it was asked for (within the margin), not one long before', async () => {
      const source = createMarkerSource(() => channelWorker());
      await source.load(oldList(), 'lab', 'en');
      await source.upsert(moved, 'en');
      const justAfter = await source.load(oldList(performance.now() + REPLAY_MARGIN_MS / 2), 'lab', 'en');
      expect((await drawn(source, justAfter)).s1).toBe(9);
      // Long after the change: the list holds it for sure (and may hold a newer one): the list wins.
      const later = await source.load(oldList(performance.now() + REPLAY_MARGIN_MS + 1_000), 'lab', 'en');
      expect((await drawn(source, later)).s1).toBe(1);
      source.dispose();
    });

    it('puts nothing back on a list it cannot date, nor on another map\'s', async () => {
      const source = createMarkerSource(() => channelWorker());
      await source.load(oldList(), 'lab', 'en');
      const askedAt = performance.now();
      await source.upsert(moved, 'en');
      const undated = await source.load(oldList(), 'lab', 'en');
      expect((await drawn(source, undated)).s1).toBe(1);
      await source.upsert(moved, 'en');
      const other = bytes([{ ...safe, map: 'customs' }]);
      noteListAskedAt(other, askedAt);
      expect((await source.load(other, 'customs', 'en')).columns.x[0]).toBe(1);
      source.dispose();
    });
  });
});

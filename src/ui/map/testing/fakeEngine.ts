/**
 * An in-memory MapEngineApi for tests of the UI wiring (jsdom has no WebGL). It keeps what
 * it is given and answers with simple, exact math: screen = (map − centre) · zoom + size / 2.
 */
import { SUBCATEGORIES } from '../../../domain/categories';
import type { CameraView, EngineEvents, MapEngineApi, MarkerColumns, MarkerFlag, MarkerRow, MarkerState } from '../../../engine/types';

/** A copy of `c` with row `index` set (index === length appends), as the engine's upsertMarker keeps it. */
function withRow(c: MarkerColumns, index: number, row: MarkerRow): MarkerColumns {
  const n = Math.max(c.uids.length, index + 1);
  const put = <T extends Float32Array | Int16Array | Uint8Array>(old: T, next: T, value: number): T => {
    next.set(old);
    next[index] = value;
    return next;
  };
  const uids = [...c.uids];
  const labels = [...c.labels];
  uids[index] = row.uid;
  labels[index] = row.label;
  return {
    uids,
    labels,
    x: put(c.x, new Float32Array(n), row.x),
    y: put(c.y, new Float32Array(n), row.y),
    level: put(c.level, new Int16Array(n), row.level),
    icon: put(c.icon, new Uint8Array(n), row.icon),
    alwaysLabel: put(c.alwaysLabel, new Uint8Array(n), row.alwaysLabel),
  };
}

type Listener = (payload: never) => void;

export interface FakeEngine extends MapEngineApi {
  calls: { method: string; args: unknown[] }[];
  columns: MarkerColumns | null;
  filter: Uint32Array | null;
  level: number | null;
  selected: string | null;
  markerScale: number | null;
  labelMode: string | null;
  /** The badges last set, by uid. */
  flags: Record<string, MarkerFlag>;
  disposed: boolean;
  emit<K extends keyof EngineEvents>(event: K, payload: EngineEvents[K]): void;
  listenerCount(): number;
}

export function createFakeEngine(size = { width: 1000, height: 800 }, view: CameraView = { x: 500, y: 400, zoom: 2 }): FakeEngine {
  const listeners = new Map<string, Set<Listener>>();
  let camera = { ...view };
  let ready = false;
  let tool = 'pan.idle';
  const record = (method: string, ...args: unknown[]) => engine.calls.push({ method, args });

  const engine: FakeEngine = {
    renderer: 'webgl',
    get ready() {
      return ready;
    },
    calls: [],
    columns: null,
    filter: null,
    level: null,
    selected: null,
    markerScale: null,
    labelMode: null,
    flags: {},
    disposed: false,
    setMarkers(columns) {
      record('setMarkers', columns);
      engine.columns = columns;
      engine.filter = Uint32Array.from(columns.uids.keys());
    },
    setFilter(indices) {
      record('setFilter', indices);
      engine.filter = indices;
    },
    upsertMarker(index, row, passes) {
      record('upsertMarker', index, row, passes);
      const c = engine.columns;
      if (!c || index < 0 || index > c.uids.length) return;
      const fresh = index === c.uids.length || c.uids[index] === '';
      const filter = new Set(engine.filter ?? []);
      const pass = passes ?? (fresh ? true : filter.has(index));
      engine.columns = withRow(c, index, row);
      if (pass) filter.add(index);
      else filter.delete(index);
      engine.filter = Uint32Array.from([...filter].sort((a, b) => a - b));
    },
    removeMarker(index) {
      record('removeMarker', index);
      const c = engine.columns;
      if (!c || index < 0 || index >= c.uids.length) return;
      engine.columns = withRow(c, index, { uid: '', x: 0, y: 0, level: 0, icon: 0, label: '', alwaysLabel: 0 });
      engine.filter = (engine.filter ?? new Uint32Array()).filter((i) => i !== index);
    },
    setLevel(num) {
      record('setLevel', num);
      engine.level = num;
    },
    setPlayer(player, ping) {
      record('setPlayer', player, ping);
    },
    setLabelMode(mode) {
      record('setLabelMode', mode);
      engine.labelMode = mode;
    },
    setMarkerScale(scale) {
      record('setMarkerScale', scale);
      engine.markerScale = scale;
    },
    setSelected(uid) {
      record('setSelected', uid);
      engine.selected = uid;
    },
    setMarkerFlags(flags) {
      record('setMarkerFlags', { ...flags });
      engine.flags = { ...flags };
    },
    setZoomEnabled(enabled) {
      record('setZoomEnabled', enabled);
    },
    camera: () => ({ ...camera }),
    setView(next) {
      camera = { ...camera, ...next };
    },
    toScreen: (mapX, mapY) => ({ x: (mapX - camera.x) * camera.zoom + size.width / 2, y: (mapY - camera.y) * camera.zoom + size.height / 2 }),
    toMap: (screenX, screenY) => ({ x: (screenX - size.width / 2) / camera.zoom + camera.x, y: (screenY - size.height / 2) / camera.zoom + camera.y }),
    markerStates() {
      const c = engine.columns;
      if (!c || !engine.filter) return [];
      return Array.from(engine.filter, (i): MarkerState => {
        const s = engine.toScreen(c.x[i], c.y[i]);
        return {
          uid: c.uids[i],
          subCategory: SUBCATEGORIES[c.icon[i]].id,
          level: c.level[i],
          x: c.x[i],
          y: c.y[i],
          alpha: engine.level === null || c.level[i] === engine.level ? 1 : 0.2,
          visible: s.x >= 0 && s.y >= 0 && s.x <= size.width && s.y <= size.height,
          flag: engine.flags[c.uids[i]] ?? null,
        };
      });
    },
    stats: () => ({ frames: 3, updateMs: { p50: 0.5, p95: 1 }, renderMs: { p50: 1, p95: 2 }, totalMs: { p50: 1.5, p95: 3 }, recent: [1, 1.5, 3] }),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
    resize() {
      record('resize');
    },
    toolPath: () => tool,
    setTool(id, info) {
      record('setTool', id, info);
      const shape = (info as { shape?: string } | undefined)?.shape;
      tool = id === 'draw' ? `draw.${shape ?? 'marker'}.idle` : `${id}.idle`;
      listeners.get('toolchange')?.forEach((l) => (l as (p: { path: string }) => void)({ path: tool }));
    },
    registerTool(factory) {
      record('registerTool', factory);
    },
    unregisterTool(id) {
      record('unregisterTool', id);
    },
    toggleEdit() {
      engine.setTool(tool.startsWith('edit.') ? 'pan' : 'edit');
    },
    toggleMove() {
      engine.setTool(tool.startsWith('move.') ? 'pan' : 'move');
    },
    setLabels(labels) {
      record('setLabels', labels);
      if (engine.columns) engine.columns = { ...engine.columns, labels: [...labels] };
    },
    setToolHost(host) {
      record('setToolHost', host);
    },
    setShapes(shapes) {
      record('setShapes', shapes);
    },
    setGuides(shapes) {
      record('setGuides', shapes);
    },
    setSelectedShape(id) {
      record('setSelectedShape', id);
    },
    dispose() {
      record('dispose');
      engine.disposed = true;
      listeners.clear();
    },
    emit(event, payload) {
      if (event === 'ready') ready = true;
      listeners.get(event)?.forEach((l) => (l as (p: typeof payload) => void)(payload));
    },
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
  return engine;
}

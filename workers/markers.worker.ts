/** The markers worker: the pure marker store behind one comlink `expose` (markers-api.ts). */
import '../src/domain/no-eval';
import * as Comlink from 'comlink';
import { markersWorkerApi } from './markers-api';
import { createMarkerStore } from './markers';

export type { MarkersWorkerApi } from './markers-api';

Comlink.expose(markersWorkerApi(createMarkerStore()));

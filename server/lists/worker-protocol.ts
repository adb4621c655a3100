/** Messages between worker-list-source.ts (the server's thread) and list-worker.ts. */
import type { Language } from '../../src/domain/marker';
import type { ListKind } from './list-source';

export interface ListJob {
  id: number;
  kind: ListKind;
  map: string;
  lang: Language;
}

/** A failed build's error message and code (SQLITE_FULL, ECONNREFUSED: the API answers 503 / 507 by it). */
export type ListReply = { id: number; bytes: Uint8Array; hash: string } | { id: number; error: string; code?: string };

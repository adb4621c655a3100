/**
 * What one server process keeps in memory for the live position feed (docs/PILOT.md):
 *
 * - the last map and the last position event it has seen per code (published here, or heard
 *   from another process: every process follows every code's events on the hub), replayed to a
 *   watcher that connects; never written to the database, dropped with the pairing, and all
 *   forgotten when the hub reports a gap (replaying nothing beats replaying something stale);
 * - the open watcher streams per code, to end them when the pairing ends;
 * - the other processes' watcher counts per code, as they last said them, until they expire;
 * - when each code was last marked used, so `last_used_at` is written at most once a minute;
 * - a publish queue per code, so concurrent publishes go out in the order they arrived.
 */
import type { MapId } from '../../src/domain/maps';
import type { PilotEvent } from '../../src/domain/pilot';
import type { EventStream } from '../live/stream';

/** What crosses the hub on `pilot:{code}`: a PilotEvent, or the end of the pairing. */
export type PilotEndReason = 'deleted' | 'expired';
export interface PilotEndMessage {
  type: 'end';
  reason: PilotEndReason;
}

interface LastEvents {
  /** JSON text of the `map` event that last changed the map (a repeat of the same map keeps it). */
  map?: string;
  /** Its map: published positions are checked against it. */
  mapId?: MapId;
  /** JSON text of the last `position` event. */
  position?: string;
  /** The latest `at` of a map event seen (a repeat of the same map included). */
  mapAt?: number;
  /** The `at` of the last position. */
  positionAt?: number;
  /** When this process last saw an event of the code (its clock). */
  seenAt: number;
}

/** One other process's watcher count of a code, and until when it holds (this process's clock). */
interface RemoteCount {
  count: number;
  until: number;
}

/** A place in a code's publish queue: wait for `turn`, then `done()` (idempotent). */
export interface PublishTicket {
  turn: Promise<void>;
  done(): void;
}

export class PilotState {
  private readonly last = new Map<string, LastEvents>();
  private readonly streams = new Map<string, Set<EventStream>>();
  private readonly usedAt = new Map<string, number>();
  private readonly queues = new Map<string, Promise<void>>();
  /** code → process id → its count. */
  private readonly remote = new Map<string, Map<string, RemoteCount>>();

  /**
   * Keeps `json` (the text of `event`) as the code's last event of its kind. The same map sent
   * again (a publisher's resend after a restart, the map chosen twice) keeps the event of the
   * change: a watcher connecting later gets that time, so the position sent since is not taken
   * for one from the map before. An event older (by `at`) than the last of its kind is not
   * kept: one published on another process may arrive after a later one published here, and
   * every process must end up with the same last events.
   */
  remember(code: string, event: PilotEvent, json: string, now: number): void {
    const entry = this.last.get(code) ?? { seenAt: now };
    entry.seenAt = now;
    this.last.set(code, entry);
    if (event.type === 'position') {
      if (entry.positionAt !== undefined && event.at < entry.positionAt) return;
      entry.position = json;
      entry.positionAt = event.at;
      return;
    }
    if (entry.mapAt !== undefined && event.at < entry.mapAt) return;
    entry.mapAt = event.at;
    if (entry.mapId === event.data.map && entry.map !== undefined) return;
    entry.map = json;
    entry.mapId = event.data.map;
  }

  /** Forgets every code's last events (the hub had a gap: they may be stale). */
  forgetEvents(): void {
    this.last.clear();
  }

  /** Takes another process's counts (`counts`: code → open streams there), valid until `until`. */
  setRemoteCounts(origin: string, counts: Record<string, number>, until: number): void {
    for (const [code, count] of Object.entries(counts)) {
      let byOrigin = this.remote.get(code);
      if (count > 0) {
        if (!byOrigin) this.remote.set(code, (byOrigin = new Map()));
        byOrigin.set(origin, { count, until });
      } else if (byOrigin) {
        byOrigin.delete(origin);
        if (byOrigin.size === 0) this.remote.delete(code);
      }
    }
  }

  /** The other processes' open streams of `code`, as they last said and not expired at `now`. */
  remoteCount(code: string, now: number): number {
    let n = 0;
    for (const { count, until } of this.remote.get(code)?.values() ?? []) if (until > now) n += count;
    return n;
  }

  /** Drops the other processes' counts that expired at `now` (a process that stopped saying them). */
  pruneRemote(now: number): void {
    for (const [code, byOrigin] of this.remote) {
      for (const [origin, { until }] of byOrigin) if (until <= now) byOrigin.delete(origin);
      if (byOrigin.size === 0) this.remote.delete(code);
    }
  }

  /** The code's last map on this process, or null (none sent yet, or none since this process started or its hub had a gap). */
  lastMap(code: string): MapId | null {
    return this.last.get(code)?.mapId ?? null;
  }

  /** Whether this process holds a map for the code (after a restart or a gap it holds none until the publisher sends it again). */
  knowsMap(code: string): boolean {
    return this.last.get(code)?.map !== undefined;
  }

  /** The events a watcher gets on connecting: the last map, then the last position. */
  replay(code: string): string[] {
    const entry = this.last.get(code);
    if (!entry) return [];
    return [entry.map, entry.position].filter((json): json is string => json !== undefined);
  }

  addStream(code: string, stream: EventStream): void {
    let set = this.streams.get(code);
    if (!set) this.streams.set(code, (set = new Set()));
    set.add(stream);
  }

  removeStream(code: string, stream: EventStream): void {
    const set = this.streams.get(code);
    if (!set) return;
    set.delete(stream);
    if (set.size === 0) this.streams.delete(code);
  }

  /** Codes with open streams on this process. */
  watchedCodes(): string[] {
    return [...this.streams.keys()];
  }

  /** Open streams of `code` on this process (of every code without one). */
  streamCount(code?: string): number {
    if (code !== undefined) return this.streams.get(code)?.size ?? 0;
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** The code's open streams on this process (a copy: sending may close one). */
  streamsOf(code: string): EventStream[] {
    return [...(this.streams.get(code) ?? [])];
  }

  /** Ends the code's streams on this process (after `beforeClose` per stream) and forgets the code. */
  end(code: string, beforeClose?: (stream: EventStream) => void): number {
    const set = this.streams.get(code);
    const streams = set ? [...set] : [];
    for (const stream of streams) {
      beforeClose?.(stream);
      stream.close();
    }
    this.streams.delete(code);
    this.forget(code);
    return streams.length;
  }

  /** Drops the remembered events, the other processes' counts and the last-used mark of a code. */
  forget(code: string): void {
    this.last.delete(code);
    this.remote.delete(code);
    this.usedAt.delete(code);
  }

  /** Ends every stream (the app closes). */
  closeAll(): void {
    for (const code of [...this.streams.keys()]) {
      for (const stream of [...(this.streams.get(code) ?? [])]) stream.close();
    }
    this.streams.clear();
  }

  /** When the code was last marked used by this process (undefined: not lately). */
  lastMarked(code: string): number | undefined {
    return this.usedAt.get(code);
  }

  marked(code: string, now: number): void {
    this.usedAt.set(code, now);
  }

  unmark(code: string): void {
    this.usedAt.delete(code);
  }

  /**
   * Forgets what is older than `before` for codes nobody watches here (the pairing may have
   * expired unseen, or lives on in another process): keeps the maps bounded by live pairings.
   */
  prune(before: number): void {
    for (const [code, entry] of this.last) if (entry.seenAt <= before && !this.streams.has(code)) this.last.delete(code);
    for (const [code, at] of this.usedAt) if (at <= before && !this.streams.has(code)) this.usedAt.delete(code);
  }

  /**
   * Takes the next place in the code's publish queue: `turn` resolves once every earlier
   * ticket of the code is done. Taken when a request arrives, so publishes go out in arrival
   * order whatever order their database look-ups finish in.
   */
  ticket(code: string): PublishTicket {
    const previous = this.queues.get(code) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.queues.set(code, tail);
    let finished = false;
    return {
      turn: previous,
      done: () => {
        if (finished) return;
        finished = true;
        release();
        // The last ticket of the code: nothing waits behind it.
        void tail.then(() => {
          if (this.queues.get(code) === tail) this.queues.delete(code);
        });
      },
    };
  }

  /** Codes with a publish queue (tests: it empties once every request is done). */
  queuedCodes(): number {
    return this.queues.size;
  }
}

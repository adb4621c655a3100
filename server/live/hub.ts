/**
 * The one live-events module (docs/EDITOR.md "Server"): writers publish to a named channel,
 * readers (the server-sent-events streams, the cache bridge) subscribe to it.
 *
 * `LiveHub` is the interface the rest of the server uses. `MemoryLiveHub` delivers inside this
 * process, which is all one server needs. `PgLiveHub` (pg-hub.ts) is used when several server
 * processes share one PostgreSQL database: it delivers locally through a MemoryLiveHub at once
 * and sends each message to the other processes with NOTIFY; what its LISTEN connection hears
 * from them it delivers to its local subscribers. That is why data crosses the hub as JSON
 * text: what a listener gets is exactly what another process gets (a JSON-serialisable value,
 * parsed again), and the SSE streams write the text without serialising it once per client.
 * `createLiveHub` (create.ts) picks one from the settings.
 */

/** Where a message came from: this process (`remote: false`) or another one on the database. */
export interface LiveMessageInfo {
  remote: boolean;
}

/** Gets each message of a channel: the value, its JSON text and where it came from. */
export type LiveListener = (data: unknown, json: string, info: LiveMessageInfo) => void;

/** Called when messages from other processes may have been missed (see `LiveHub.onGap`). */
export type GapListener = (reason: string) => void;

export interface LiveHub {
  /** Whether messages cross to other processes (and can come from them, or go missing). */
  readonly shared: boolean;
  /** Sends `data` (JSON-serialisable) to every current subscriber of `channel`. */
  publish(channel: string, data: unknown): void;
  /** Returns the unsubscribe function (safe to call more than once). */
  subscribe(channel: string, listener: LiveListener): () => void;
  /** Number of subscribers of a channel (all channels without one). */
  subscriberCount(channel?: string): number;
  /**
   * Calls `listener` when messages from other processes may have been lost (the listening
   * connection to the database broke and is back, or a process had to drop messages it could
   * not send). Subscribers should then re-read what they keep: caches drop their lists, the
   * SSE streams end so their clients reconnect and reload. A MemoryLiveHub never has gaps.
   * Returns the unsubscribe function.
   */
  onGap(listener: GapListener): () => void;
  /** Drops every subscriber; later publishes go nowhere. */
  close(): Promise<void>;
}

const LOCAL: LiveMessageInfo = Object.freeze({ remote: false });
const REMOTE: LiveMessageInfo = Object.freeze({ remote: true });

/** The channel of one map's marker changes. */
export function markersChannel(map: string): string {
  return `markers:${map}`;
}

export class MemoryLiveHub implements LiveHub {
  readonly shared: boolean = false;
  private readonly channels = new Map<string, Set<LiveListener>>();
  private closed = false;

  constructor(private readonly onListenerError: (error: unknown, channel: string) => void = (error) => console.error('live listener failed', error)) {}

  publish(channel: string, data: unknown): void {
    if (!this.channels.get(channel)?.size) return;
    this.deliver(channel, JSON.stringify(data), false);
  }

  /**
   * Delivers a message given as JSON text (parsed once for every subscriber): what a
   * PgLiveHub heard from another process (`remote`), or its own publish.
   */
  deliver(channel: string, json: string, remote: boolean): void {
    const listeners = this.channels.get(channel);
    if (!listeners || listeners.size === 0) return;
    const value: unknown = JSON.parse(json);
    const info = remote ? REMOTE : LOCAL;
    // A copy: a listener may unsubscribe (itself or another) while we deliver.
    for (const listener of [...listeners]) {
      try {
        listener(value, json, info);
      } catch (error) {
        this.onListenerError(error, channel);
      }
    }
  }

  subscribe(channel: string, listener: LiveListener): () => void {
    if (this.closed) return () => {};
    let listeners = this.channels.get(channel);
    if (!listeners) this.channels.set(channel, (listeners = new Set()));
    // Wrapped, so one function subscribed twice is two subscriptions.
    const entry: LiveListener = (data, json, info) => listener(data, json, info);
    listeners.add(entry);
    return () => {
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(entry);
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  subscriberCount(channel?: string): number {
    if (channel !== undefined) return this.channels.get(channel)?.size ?? 0;
    let n = 0;
    for (const listeners of this.channels.values()) n += listeners.size;
    return n;
  }

  onGap(_listener: GapListener): () => void {
    // One process hears everything it publishes: nothing is ever missed.
    return () => {};
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
  }
}

/**
 * The one live-events module (docs/EDITOR.md "Server"): writers publish to a named channel,
 * readers (the server-sent-events streams) subscribe to it.
 *
 * `LiveHub` is the interface the rest of the server uses; `MemoryLiveHub` delivers inside this
 * process, which is all one server needs. Several server processes on one PostgreSQL database
 * (issue 10) will add a `LiveHub` whose `publish` sends `NOTIFY raidmap_live, '{channel, json}'`
 * and which delivers what its `LISTEN` connection hears to its local subscribers through a
 * MemoryLiveHub; nothing else changes. That is why data crosses the hub as JSON text: what a
 * listener gets is exactly what another process would get (a JSON-serialisable value, parsed
 * again), and the SSE streams write the text without serialising it once per client.
 */

/** Gets each message of a channel: the value and its JSON text. */
export type LiveListener = (data: unknown, json: string) => void;

export interface LiveHub {
  /** Sends `data` (JSON-serialisable) to every current subscriber of `channel`. */
  publish(channel: string, data: unknown): void;
  /** Returns the unsubscribe function (safe to call more than once). */
  subscribe(channel: string, listener: LiveListener): () => void;
  /** Number of subscribers of a channel (all channels without one). */
  subscriberCount(channel?: string): number;
  /** Drops every subscriber; later publishes go nowhere. */
  close(): Promise<void>;
}

/** The channel of one map's marker changes. */
export function markersChannel(map: string): string {
  return `markers:${map}`;
}

export class MemoryLiveHub implements LiveHub {
  private readonly channels = new Map<string, Set<LiveListener>>();
  private closed = false;

  constructor(private readonly onListenerError: (error: unknown, channel: string) => void = (error) => console.error('live listener failed', error)) {}

  publish(channel: string, data: unknown): void {
    const listeners = this.channels.get(channel);
    if (!listeners || listeners.size === 0) return;
    const json = JSON.stringify(data);
    const value: unknown = JSON.parse(json);
    // A copy: a listener may unsubscribe (itself or another) while we deliver.
    for (const listener of [...listeners]) {
      try {
        listener(value, json);
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
    const entry: LiveListener = (data, json) => listener(data, json);
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

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
  }
}

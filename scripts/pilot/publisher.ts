/**
 * The publisher: sends what the watchers saw to the server, one request at a time.
 *
 * - Only the newest position waits to be sent (Outbox); never more than one request in flight.
 * - While the server is down, restarting or rate-limiting, it retries with exponential back-off
 *   (honouring Retry-After), keeping only the newest position meanwhile.
 * - When idle it pings every `pingMs` so the server keeps the pairing, and says when the number
 *   of watching pages changes.
 * - 401/403 (the token is refused) stops it; 404 (the pairing is gone) pairs again.
 * - The map last sent is sent again when the server says it holds none (`knowsMap: false`: it
 *   restarted and lost it, and a page opening now would draw positions on the wrong map), then
 *   the last position (a page shows no position older than its map).
 */
import { PILOT_PING_MS, type PilotMessage } from '../../src/domain/pilot';
import { positionText, retryDelayMs, secondsText, watchersText } from '../../src/domain/pilot-watcher';
import type { Pairing, PilotApi } from './api';
import { Outbox, type OutboxMessage } from './outbox';
import { wait } from './wait';

export interface PublisherOptions {
  api: PilotApi;
  pairing: Pairing;
  log: (line: string) => void;
  /** A new pairing after the server forgot this one (shown to the user by the callee); null when stopped. */
  rePair: (signal: AbortSignal) => Promise<Pairing | null>;
  /** Keep-alive period while nothing else is sent. */
  pingMs?: number;
  /** Retry delays: base and cap (ms). */
  retry?: { baseMs: number; maxMs: number };
}

export type PublisherEnd = { reason: 'stopped' } | { reason: 'unauthorized'; status: number };

function describe(message: PilotMessage): string {
  return message.type === 'map' ? `map ${message.data.map}` : message.type;
}

export class Publisher {
  private readonly outbox = new Outbox();
  private readonly controller = new AbortController();
  private wake: (() => void) | null = null;
  private lastContact = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private inFlight = 0;
  private pairingNow: Pairing;
  /** The last map change and position the server accepted (sent again when it forgot the map). */
  private lastMap: Extract<OutboxMessage, { type: 'map' }> | null = null;
  private lastPosition: Extract<OutboxMessage, { type: 'position' }> | null = null;
  /** The most requests ever in flight at once (1; kept for the tests). */
  maxInFlight = 0;
  /** Pages watching, as the server last said (null before it said). */
  watchers: number | null = null;
  /** Messages the server accepted, by type. */
  readonly sent = { position: 0, map: 0, ping: 0 };

  constructor(private readonly options: PublisherOptions) {
    this.pairingNow = options.pairing;
  }

  get pairing(): Pairing {
    return this.pairingNow;
  }

  /** Positions replaced by a newer one before they could be sent. */
  get dropped(): number {
    return this.outbox.dropped;
  }

  /** Queues a message; the newest position replaces one still waiting. */
  publish(message: OutboxMessage): void {
    if (this.controller.signal.aborted) return;
    this.outbox.put(message);
    this.wake?.();
  }

  stop(): void {
    this.controller.abort();
    this.wake?.();
  }

  /** Sends until stopped or until the server refuses the token. */
  async run(): Promise<PublisherEnd> {
    const { signal } = this.controller;
    const pingMs = this.options.pingMs ?? PILOT_PING_MS;
    while (!signal.aborted) {
      let message: PilotMessage | null = this.outbox.take();
      if (message === null) {
        const due = this.lastContact + pingMs - Date.now();
        if (due > 0) {
          await this.idle(due);
          continue;
        }
        message = { type: 'ping' };
      }

      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let result;
      try {
        result = await this.options.api.send(this.pairingNow, message, signal);
      } catch (error) {
        if (signal.aborted) break;
        throw error;
      } finally {
        this.inFlight--;
      }

      switch (result.kind) {
        case 'ok':
          this.contact();
          this.sent[message.type]++;
          if (message.type === 'position') {
            this.lastPosition = message;
            this.options.log(`${positionText(message.data)} sent`);
          }
          if (message.type === 'map') {
            this.lastMap = message;
            this.options.log(`map: ${message.data.map}`);
          }
          if (result.value.knowsMap === false && this.lastMap !== null) {
            this.options.log(`the server lost the map (it restarted?): sending map ${this.lastMap.data.map} again`);
            this.outbox.resendMap(this.lastMap);
            // Then the position again: a page shows no position older than its map.
            if (this.lastPosition !== null) this.outbox.resendPosition(this.lastPosition);
          }
          if (result.value.watchers !== null && result.value.watchers !== this.watchers) {
            this.watchers = result.value.watchers;
            this.options.log(watchersText(result.value.watchers));
          }
          break;
        case 'refused':
          this.contact();
          this.options.log(`the server refused the ${describe(message)}: ${result.reason}`);
          break;
        case 'retry': {
          if (message.type !== 'ping') this.outbox.putBack(message);
          this.failures++;
          const delay = retryDelayMs(this.failures, result.retryAfterMs, this.options.retry?.baseMs, this.options.retry?.maxMs);
          this.options.log(`${result.reason}, retrying in ${secondsText(delay)}`);
          await wait(delay, signal);
          break;
        }
        case 'unauthorized':
          this.options.log(`the server refused the publisher token (${result.status}); stopping`);
          this.controller.abort();
          return { reason: 'unauthorized', status: result.status };
        case 'gone': {
          if (message.type !== 'ping') this.outbox.putBack(message);
          this.options.log('the pairing expired or the server forgot it; pairing again');
          const pairing = await this.options.rePair(signal);
          if (pairing === null) break;
          this.pairingNow = pairing;
          this.watchers = null;
          // A new pairing knows no map: the pages following it need the current one.
          if (this.lastMap !== null) this.outbox.resendMap(this.lastMap);
          this.contact();
          break;
        }
      }
    }
    return { reason: 'stopped' };
  }

  private contact(): void {
    if (this.failures > 0) this.options.log('server reachable again');
    this.failures = 0;
    this.lastContact = Date.now();
  }

  /** Waits until a message is published, `ms` passed, or stop. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
      if (this.controller.signal.aborted) done();
    });
  }
}

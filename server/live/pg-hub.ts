/**
 * Live events across server processes on one PostgreSQL database (LISTEN / NOTIFY, no other
 * service). Each process keeps one dedicated connection (not from the pool) that LISTENs on
 * the site's notification channel and also sends this process's NOTIFYs, in order:
 *
 *   publish(channel, data) ─┬─ local subscribers, at once (MemoryLiveHub)
 *                           └─ outbox ─ select pg_notify(…) over the listening connection ─┐
 *   other process: LISTEN connection ─ 'notification' ─ reassemble ─ its local subscribers ◄┘
 *
 * A NOTIFY payload must be under 8000 bytes. A message is JSON text; it travels as one
 * notification when it fits and in numbered chunks when it does not (a marker with long texts
 * is up to ~190 KB), all chunks in one statement, so one transaction: PostgreSQL delivers them
 * together, in order, and the receiver joins them. Every notification starts with a one-line
 * JSON header: `{"o":origin,"i":message id,"k":chunk index,"n":chunks,"c":channel}`, or
 * `{"o":origin,"t":"gap"}` for a process that had to drop messages it could not send.
 *
 * A process ignores its own notifications (it delivered them locally already). When the
 * listening connection breaks, the hub reconnects with exponential back-off (jittered) and,
 * once listening again, reports a gap (`onGap`): messages sent meanwhile were not heard, so
 * caches drop their lists and the SSE streams end (their clients reconnect and reload the
 * list). Messages published while disconnected wait in a bounded outbox and go out on
 * reconnect; past the bound the oldest are dropped and the others are told of a gap.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MemoryLiveHub, type GapListener, type LiveHub, type LiveListener } from './hub';

/** PostgreSQL refuses a NOTIFY payload of this many bytes or more. */
export const NOTIFY_PAYLOAD_LIMIT = 8000;
/** Bytes of message text per notification, leaving room for the header. */
const CHUNK_BYTES = 7600;
/** Longest publish channel name (keeps the header small). */
const MAX_CHANNEL_LENGTH = 200;
/** Notifications sent in one statement at most. */
const BATCH = 256;
/** A chunked message not complete after this long is dropped (its sender lost its connection). */
const PARTIAL_TTL_MS = 60_000;

/**
 * Where the hub's lines go: the server's JSON logger (server/main.ts passes it, pino takes
 * `(fields, message)`), or the console before it exists. A connection's trouble comes as a
 * `reason` field (its error's message), not in the message text.
 */
export interface LiveLog {
  /** The listening connection is back (optional: tests give only warn and error). */
  info?(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const consoleLiveLog: LiveLog = {
  info: (obj, msg) => console.log(consoleLine(obj, msg)),
  warn: (obj, msg) => console.warn(consoleLine(obj, msg)),
  error: (obj, msg) => console.error(consoleLine(obj, msg)),
};

/** `live: message: reason {"other":"fields"}`: the reason after a colon, never run into the message. */
function consoleLine(obj: object, msg: string): string {
  const err = (obj as { err?: unknown }).err;
  const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== 'err'));
  const detail = [err instanceof Error ? err.message : err === undefined ? '' : String(err), Object.keys(rest).length ? JSON.stringify(rest) : '']
    .filter(Boolean)
    .join(' ');
  return detail ? `live: ${msg}: ${detail}` : `live: ${msg}`;
}

/** The message of an error (what the database or the network said), for a `reason` field. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface PgLiveHubOptions {
  /** postgres:// URL of the site's database (the one DATABASE_URL names). */
  connectionString: string;
  /**
   * The PostgreSQL schema the site works in, if not the default: notification channels are
   * database-wide, so sites in different schemas of one database use different channels.
   */
  schema?: string;
  /** Override the notification channel (tests). Default `pgChannelName(schema)`. */
  pgChannel?: string;
  log?: LiveLog;
  /** First and longest wait before reconnecting (ms). Default 250 and 15,000. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** A ping (`select 1`) on the listening connection this often finds a dead one (ms). Default 30,000. */
  pingMs?: number;
  /** Notifications kept while disconnected; older ones are dropped past this. Default 10,000. */
  maxOutbox?: number;
}

/** The NOTIFY channel of a site: `raidmap_live`, or `raidmap_live_{schema}` (63 characters at most). */
export function pgChannelName(schema?: string): string {
  return (schema ? `raidmap_live_${schema}` : 'raidmap_live').slice(0, 63);
}

/** Splits text into pieces of at most `maxBytes` bytes of UTF-8, never inside a character. */
export function splitUtf8(text: string, maxBytes: number): string[] {
  if (maxBytes < 4) throw new Error('splitUtf8: maxBytes must be at least 4');
  if (Buffer.byteLength(text) <= maxBytes) return [text];
  const parts: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) {
      parts.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
    i += units;
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Whether an error is the statement's own fault (a SQLSTATE outside the connection classes 08
 * and 57P: the session is fine, sending again would fail again) rather than the connection's
 * (a network error, the server shutting down or ending the session).
 */
export function isStatementError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !code.startsWith('57P');
}

interface Header {
  o: string;
  i?: number;
  k?: number;
  n?: number;
  c?: string;
  t?: 'gap';
}

interface PartialMessage {
  channel: string;
  parts: (string | undefined)[];
  got: number;
  at: number;
}

type ListenClient = pg.Client & { raidmapGone?: boolean };

export class PgLiveHub implements LiveHub {
  /** This process's id in the headers (its own notifications come back to it and are skipped). */
  readonly origin = randomUUID();
  readonly pgChannel: string;
  readonly shared = true;
  private readonly local: MemoryLiveHub;
  private readonly log: LiveLog;
  private readonly gapListeners = new Set<GapListener>();
  private readonly partials = new Map<string, PartialMessage>();
  private readonly outbox: string[] = [];
  private readonly opts: Required<Pick<PgLiveHubOptions, 'reconnectMinMs' | 'reconnectMaxMs' | 'pingMs' | 'maxOutbox'>>;
  private client: ListenClient | null = null;
  private connecting = false;
  private sending: Promise<void> | null = null;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private everListened = false;
  /** When the listening connection was lost (epoch ms), until it listens again. */
  private lostAt: number | null = null;
  private droppedOutgoing = 0;
  private nextId = 0;
  private closed = false;
  private backendPid: number | null = null;
  private readonly readyPromise: Promise<void>;
  private resolveReady!: () => void;
  /** Counters for tests and logs. */
  readonly stats = { connects: 0, sent: 0, received: 0, gaps: 0, dropped: 0 };

  constructor(private readonly options: PgLiveHubOptions) {
    this.pgChannel = options.pgChannel ?? pgChannelName(options.schema);
    this.log = options.log ?? consoleLiveLog;
    this.local = new MemoryLiveHub((error, channel) => this.log.error({ err: error, channel }, 'live listener failed'));
    this.opts = {
      reconnectMinMs: options.reconnectMinMs ?? 250,
      reconnectMaxMs: options.reconnectMaxMs ?? 15_000,
      pingMs: options.pingMs ?? 30_000,
      maxOutbox: options.maxOutbox ?? 10_000,
    };
    this.readyPromise = new Promise((resolve) => (this.resolveReady = resolve));
    void this.connect();
  }

  /** Resolves once the first LISTEN is in place (or never, while the database cannot be reached). */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Whether the listening connection is up now. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** The server process id of the listening connection (tests end it to check reconnection). */
  get listenerPid(): number | null {
    return this.client ? this.backendPid : null;
  }

  publish(channel: string, data: unknown): void {
    if (this.closed) return;
    if (channel.length > MAX_CHANNEL_LENGTH) throw new Error(`live channel name longer than ${MAX_CHANNEL_LENGTH} characters`);
    const json = JSON.stringify(data);
    this.local.deliver(channel, json, false);
    const id = ++this.nextId;
    const chunks = splitUtf8(json, CHUNK_BYTES);
    const n = chunks.length;
    for (let k = 0; k < n; k++) this.enqueue(`${JSON.stringify({ o: this.origin, i: id, k, n, c: channel } satisfies Header)}\n${chunks[k]}`);
    this.flush();
  }

  subscribe(channel: string, listener: LiveListener): () => void {
    return this.local.subscribe(channel, listener);
  }

  subscriberCount(channel?: string): number {
    return this.local.subscriberCount(channel);
  }

  onGap(listener: GapListener): () => void {
    const entry: GapListener = (reason) => listener(reason);
    this.gapListeners.add(entry);
    return () => this.gapListeners.delete(entry);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Send what is queued (briefly), then stop.
    const deadline = Date.now() + 2000;
    while (this.client && (this.sending || this.outbox.length > 0) && Date.now() < deadline) {
      this.flush();
      await Promise.race([this.sending ?? Promise.resolve(), new Promise((r) => setTimeout(r, 50))]);
    }
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.raidmapGone = true;
      await client.end().catch(() => undefined);
    }
    this.gapListeners.clear();
    this.partials.clear();
    this.outbox.length = 0;
    await this.local.close();
  }

  private enqueue(payload: string): void {
    this.outbox.push(payload);
    if (this.outbox.length > this.opts.maxOutbox) {
      const drop = this.outbox.length - this.opts.maxOutbox;
      this.outbox.splice(0, drop);
      this.droppedOutgoing += drop;
      this.stats.dropped += drop;
    }
  }

  /** Sends the outbox over the listening connection, one batch at a time, in order. */
  private flush(): void {
    if (this.sending || !this.client || this.outbox.length === 0) return;
    const client = this.client;
    if (this.droppedOutgoing > 0) {
      this.log.warn({ dropped: this.droppedOutgoing }, 'live messages were dropped while the database could not be reached; telling the other processes');
      this.outbox.unshift(`${JSON.stringify({ o: this.origin, t: 'gap' } satisfies Header)}\n`);
      this.droppedOutgoing = 0;
    }
    const batch = this.outbox.splice(0, BATCH);
    this.sending = client
      .query('select pg_notify($1, p) from unnest($2::text[]) with ordinality as t(p, n) order by n', [this.pgChannel, batch])
      .then(
        () => {
          this.stats.sent += batch.length;
        },
        (error: unknown) => {
          if (this.client !== client || client.raidmapGone || !isStatementError(error)) {
            // The connection broke: send the batch again once reconnected (a receiver may get a
            // message twice if the commit went through; marker changes carry versions). The
            // error may come before the client's own 'error' event: forget the client now, so
            // the retry waits for a new connection instead of spinning on the dead one.
            this.outbox.unshift(...batch);
            this.lost(client, error);
          } else {
            this.log.error({ err: error, notifications: batch.length }, 'NOTIFY failed; those live messages are lost');
            this.droppedOutgoing += batch.length;
            this.stats.dropped += batch.length;
          }
        },
      )
      .finally(() => {
        this.sending = null;
        this.flush();
      });
  }

  private async connect(): Promise<void> {
    if (this.closed || this.connecting || this.client) return;
    this.connecting = true;
    const client: ListenClient = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      application_name: 'raidmap-live',
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    client.on('notification', (message) => this.onNotification(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.pgChannel)}`);
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      this.backendPid = rows[0]?.pid ?? null;
      if (client.raidmapGone) throw new Error('the connection ended while starting to listen');
    } catch (error) {
      this.connecting = false;
      client.raidmapGone = true;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.failures++;
      this.log.warn({ reason: reasonOf(error), attempt: this.failures }, 'cannot LISTEN for live events on PostgreSQL; retrying');
      this.scheduleReconnect();
      return;
    }
    this.connecting = false;
    if (this.closed) {
      client.raidmapGone = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.stats.connects++;
    const missed = this.everListened || this.failures > 0;
    // Said once it is back, whatever took it away (a lost connection, failed first attempts).
    if (this.failures > 0 || this.lostAt !== null) {
      this.log.info?.({ attempts: this.failures + 1, ...(this.lostAt !== null ? { downMs: Date.now() - this.lostAt } : {}) }, 'listening for live events on PostgreSQL again');
    }
    this.lostAt = null;
    this.failures = 0;
    this.everListened = true;
    this.partials.clear();
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.ping(client), this.opts.pingMs);
    this.pingTimer.unref();
    this.resolveReady();
    if (missed) this.gap('the listening connection to PostgreSQL was down: live messages may have been missed');
    this.flush();
  }

  private ping(client: ListenClient): void {
    if (this.client !== client) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer to a ping in 10 s')), 10_000);
    });
    Promise.race([client.query('select 1'), timeout])
      .catch((error: unknown) => this.lost(client, error))
      .finally(() => clearTimeout(timer));
  }

  /** The connection `client` failed or ended: forget it and reconnect (once per client). */
  private lost(client: ListenClient, error: unknown): void {
    if (client.raidmapGone) return;
    client.raidmapGone = true;
    client.end().catch(() => undefined);
    if (this.client !== client) return; // still connecting: connect() handles it
    this.client = null;
    this.backendPid = null;
    clearInterval(this.pingTimer);
    if (this.closed) return;
    this.lostAt = Date.now();
    this.log.warn({ reason: reasonOf(error) }, 'lost the PostgreSQL connection that listens for live events; reconnecting');
    this.scheduleReconnect(true);
  }

  private scheduleReconnect(now = false): void {
    if (this.closed || this.reconnectTimer || this.connecting || this.client) return;
    const { reconnectMinMs, reconnectMaxMs } = this.opts;
    const base = now ? 0 : Math.min(reconnectMaxMs, reconnectMinMs * 2 ** Math.max(0, this.failures - 1));
    // Jitter, so processes that lost the database together do not come back in step.
    const delay = base === 0 ? 0 : base / 2 + Math.random() * (base / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private gap(reason: string): void {
    this.stats.gaps++;
    for (const listener of [...this.gapListeners]) {
      try {
        listener(reason);
      } catch (error) {
        this.log.error({ err: error }, 'live gap listener failed');
      }
    }
  }

  private onNotification(message: pg.Notification): void {
    if (message.channel !== this.pgChannel || !message.payload) return;
    const payload = message.payload;
    const cut = payload.indexOf('\n');
    let header: Header;
    try {
      header = JSON.parse(cut < 0 ? payload : payload.slice(0, cut)) as Header;
    } catch {
      this.log.warn({ payload: payload.slice(0, 80) }, 'ignoring a notification that is not a live message');
      return;
    }
    if (!header || typeof header.o !== 'string' || header.o === this.origin) return;
    if (header.t === 'gap') {
      this.gap(`process ${header.o} dropped live messages it could not send`);
      return;
    }
    const { i, k, n, c } = header;
    if (typeof c !== 'string' || !Number.isInteger(i) || !Number.isInteger(k) || !Number.isInteger(n) || n! < 1 || k! < 0 || k! >= n!) {
      this.log.warn({ header }, 'ignoring a live message with a malformed header');
      return;
    }
    const body = cut < 0 ? '' : payload.slice(cut + 1);
    if (n === 1) return this.deliver(c, body);
    const now = Date.now();
    for (const [key, partial] of this.partials) if (now - partial.at > PARTIAL_TTL_MS) this.partials.delete(key);
    const key = `${header.o}/${i}`;
    let partial = this.partials.get(key);
    if (!partial) this.partials.set(key, (partial = { channel: c, parts: new Array<string | undefined>(n!), got: 0, at: now }));
    if (partial.parts[k!] === undefined) {
      partial.parts[k!] = body;
      partial.got++;
    }
    if (partial.got === partial.parts.length) {
      this.partials.delete(key);
      this.deliver(partial.channel, partial.parts.join(''));
    }
  }

  private deliver(channel: string, json: string): void {
    this.stats.received++;
    try {
      this.local.deliver(channel, json, true);
    } catch (error) {
      this.log.warn({ err: error, channel }, 'ignoring a live message that is not JSON');
    }
  }
}

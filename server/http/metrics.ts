/**
 * `GET /api/be/metrics`: this process's figures in the Prometheus text exposition format
 * (version 0.0.4), for an operator's dashboard (docs/SERVER.md "Logs and metrics").
 *
 *   raidmap_http_requests_total{method,route,status}             counter
 *   raidmap_http_request_duration_seconds{method,route,status}   histogram (long-lived streams left out)
 *   raidmap_http_requests_in_flight                              gauge
 *   raidmap_live_streams{route}                                  gauge (open server-sent-event streams)
 *   raidmap_http_open_connections, raidmap_http_connections_refused_total
 *   whatever the app adds with `gauge` / `counter` (tile renders and cache size, live streams)
 *   process_* and nodejs_* basics (memory, CPU, open file descriptors, event-loop delay)
 *
 * `route` is the route's pattern (`/api/be/markers/list`, `/tiles/:map/...`), never the raw
 * URL, so the number of series stays bounded whatever clients ask for; the not-found handler
 * (SPA pages and JSON 404s) is `(fallback)`. `status` is the class: `2xx`, `3xx`, `4xx`, `5xx`,
 * or `aborted` when the client went away before an answer was sent.
 *
 * Who may read it: a request with `Authorization: Bearer $METRICS_TOKEN` (when the operator set
 * one: what a Prometheus scraper sends), or a signed-in admin. Everyone else gets 401 / 403.
 *
 * Written here rather than with prom-client (not among the project's dependencies): the
 * exposition format is a few lines of text, and these are the only series (docs/DECISIONS.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireAdmin } from '../auth';
import { sendError } from './errors';

export const METRICS_PATH = '/api/be/metrics';
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
/** Request duration buckets, in seconds. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** The route label of the not-found handler (the SPA fallback and JSON 404s). */
export const FALLBACK_ROUTE = '(fallback)';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

type Labels = Record<string, string>;

/** A label value as the format wants it: backslash, double quote and newline escaped (pure). */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

/** A number as the format writes it (pure): integers plainly, `+Inf`, `NaN`. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function header(lines: string[], name: string, type: string, help: string): void {
  lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`);
}

interface Series {
  labels: Labels;
  value: number;
}

interface HistogramSeries {
  labels: Labels;
  /** Counts per bucket (not cumulative), then the overflow. */
  counts: number[];
  sum: number;
  count: number;
}

/** Whether a request's labels are those of a long-lived stream (kept out of the histogram). */
export type LongLivedTest = (route: string) => boolean;

export interface Probe {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  /** The current value; undefined leaves the series out (the figure is not known here). */
  read(): number | undefined | Array<{ labels: Labels; value: number }>;
}

/** The status class of a code (pure): `2xx` … `5xx`. */
export function statusClass(code: number): string {
  return code >= 100 && code < 600 ? `${Math.floor(code / 100)}xx` : 'other';
}

/** The route label of a request (pure over its parts). */
export function routeLabel(routeUrl: string | undefined): string {
  return routeUrl && routeUrl.length > 0 ? routeUrl : FALLBACK_ROUTE;
}

export class Metrics {
  private readonly requests = new Map<string, Series>();
  private readonly durations = new Map<string, HistogramSeries>();
  private readonly probes: Probe[] = [];
  private inFlight = 0;
  /** Open long-lived streams by route. */
  private readonly streams = new Map<string, number>();
  private eventLoop?: IntervalHistogram;

  constructor(private readonly isLongLived: LongLivedTest = () => false) {}

  /** Adds a gauge or counter read at each scrape. Names must be unique. */
  add(probe: Probe): void {
    if (this.probes.some((p) => p.name === probe.name)) throw new Error(`metric ${probe.name} is already registered`);
    this.probes.push(probe);
  }

  gauge(name: string, help: string, read: Probe['read']): void {
    this.add({ name, help, type: 'gauge', read });
  }

  counter(name: string, help: string, read: Probe['read']): void {
    this.add({ name, help, type: 'counter', read });
  }

  /**
   * A request came in; the function returned is to be called when its answer is done or the
   * client went away (more calls do nothing).
   */
  started(route: string): () => void {
    const stream = this.isLongLived(route);
    if (stream) this.streams.set(route, (this.streams.get(route) ?? 0) + 1);
    else this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (!stream) this.inFlight -= 1;
      else this.streams.set(route, (this.streams.get(route) ?? 1) - 1);
    };
  }

  /**
   * One answered request; `seconds` from its first byte to the last byte of the answer.
   * `aborted`: the client went away before an answer was sent.
   */
  observe(method: string, route: string, statusCode: number | 'aborted', seconds: number): void {
    const status = statusCode === 'aborted' ? 'aborted' : statusClass(statusCode);
    const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status };
    const key = `${labels.method} ${labels.route} ${labels.status}`;
    const series = this.requests.get(key);
    if (series) series.value += 1;
    else this.requests.set(key, { labels, value: 1 });
    if (this.isLongLived(route)) return;
    let histogram = this.durations.get(key);
    if (!histogram) {
      histogram = { labels, counts: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      this.durations.set(key, histogram);
    }
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i += 1;
    histogram.counts[i] += 1;
    histogram.sum += seconds;
    histogram.count += 1;
  }

  /** Starts sampling the event loop's delay (stopped by `stop`). */
  watchEventLoop(): void {
    if (this.eventLoop) return;
    this.eventLoop = monitorEventLoopDelay({ resolution: 20 });
    this.eventLoop.enable();
  }

  stop(): void {
    this.eventLoop?.disable();
    this.eventLoop = undefined;
  }

  /** The exposition text. */
  render(): string {
    const lines: string[] = [];
    header(lines, 'raidmap_http_requests_total', 'counter', 'HTTP requests answered, by method, route pattern and status class.');
    for (const s of this.requests.values()) lines.push(`raidmap_http_requests_total${labelText(s.labels)} ${s.value}`);

    header(lines, 'raidmap_http_request_duration_seconds', 'histogram', 'Time from a request to the end of its answer, by method, route pattern and status class (live streams left out).');
    for (const h of this.durations.values()) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((le, i) => {
        cumulative += h.counts[i];
        lines.push(`raidmap_http_request_duration_seconds_bucket${labelText({ ...h.labels, le: String(le) })} ${cumulative}`);
      });
      lines.push(`raidmap_http_request_duration_seconds_bucket${labelText({ ...h.labels, le: '+Inf' })} ${h.count}`);
      lines.push(`raidmap_http_request_duration_seconds_sum${labelText(h.labels)} ${formatValue(h.sum)}`);
      lines.push(`raidmap_http_request_duration_seconds_count${labelText(h.labels)} ${h.count}`);
    }

    header(lines, 'raidmap_http_requests_in_flight', 'gauge', 'Requests being handled now (live streams left out).');
    lines.push(`raidmap_http_requests_in_flight ${this.inFlight}`);
    header(lines, 'raidmap_live_streams', 'gauge', 'Open live event streams (server-sent events), by route pattern.');
    for (const [route, open] of this.streams) lines.push(`raidmap_live_streams${labelText({ route })} ${open}`);

    for (const probe of this.probes) {
      let value: ReturnType<Probe['read']>;
      try {
        value = probe.read();
      } catch {
        value = undefined;
      }
      if (value === undefined) continue;
      header(lines, probe.name, probe.type, probe.help);
      if (typeof value === 'number') lines.push(`${probe.name} ${formatValue(value)}`);
      else for (const s of value) lines.push(`${probe.name}${labelText(s.labels)} ${formatValue(s.value)}`);
    }

    processLines(lines, this.eventLoop);
    return `${lines.join('\n')}\n`;
  }
}

function openFds(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

function processLines(lines: string[], eventLoop: IntervalHistogram | undefined): void {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  header(lines, 'process_cpu_user_seconds_total', 'counter', 'User CPU time spent, in seconds.');
  lines.push(`process_cpu_user_seconds_total ${cpu.user / 1e6}`);
  header(lines, 'process_cpu_system_seconds_total', 'counter', 'System CPU time spent, in seconds.');
  lines.push(`process_cpu_system_seconds_total ${cpu.system / 1e6}`);
  header(lines, 'process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.');
  lines.push(`process_resident_memory_bytes ${memory.rss}`);
  header(lines, 'nodejs_heap_size_used_bytes', 'gauge', 'V8 heap in use, in bytes.');
  lines.push(`nodejs_heap_size_used_bytes ${memory.heapUsed}`);
  header(lines, 'process_start_time_seconds', 'gauge', 'Start time of the process since the Unix epoch, in seconds.');
  lines.push(`process_start_time_seconds ${Math.round(Date.now() / 1000 - process.uptime())}`);
  const fds = openFds();
  if (fds !== undefined) {
    header(lines, 'process_open_fds', 'gauge', 'Open file descriptors (sockets included).');
    lines.push(`process_open_fds ${fds}`);
  }
  if (eventLoop && eventLoop.count > 0) {
    header(lines, 'nodejs_eventloop_delay_seconds', 'gauge', 'Event-loop delay since the previous scrape, by quantile (1 = the longest).');
    for (const q of [0.5, 0.9, 0.99]) lines.push(`nodejs_eventloop_delay_seconds{quantile="${q}"} ${eventLoop.percentile(q * 100) / 1e9}`);
    lines.push(`nodejs_eventloop_delay_seconds{quantile="1"} ${eventLoop.max / 1e9}`);
    eventLoop.reset();
  }
}

// ---------------------------------------------------------------------------------------------
// Who may read

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function sameSecret(given: string, expected: string): boolean {
  // Digests of equal length: timingSafeEqual says nothing about where they differ, or the length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * onRequest guard of the metrics route: a bearer token when one is sent (judged on the token
 * alone), otherwise an admin's session (requireAdmin: 401 signed out, 403 not an admin).
 */
export function metricsGuard(token: string | undefined) {
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const authorization = request.headers.authorization;
    if (authorization === undefined) {
      await requireAdmin(request, reply);
      return;
    }
    const bearer = BEARER.exec(authorization);
    if (!bearer) {
      await sendError(reply.header('www-authenticate', 'Bearer realm="metrics"'), 401, 'authorization: expected "Bearer <token>" (METRICS_TOKEN), or no Authorization header and an admin session');
      return;
    }
    if (!token) {
      await sendError(reply.header('www-authenticate', 'Bearer realm="metrics"'), 401, 'authorization: this server has no METRICS_TOKEN; sign in as an admin instead');
      return;
    }
    if (!sameSecret(bearer[1], token)) {
      await sendError(reply.header('www-authenticate', 'Bearer realm="metrics", error="invalid_token"'), 401, 'authorization: wrong metrics token');
    }
  };
}

export interface MetricsOptions {
  metrics: Metrics;
  /** METRICS_TOKEN; undefined: admins only. */
  token?: string;
}

/**
 * Registers the counting hooks on the root instance (so every route and the not-found handler
 * is counted) and the metrics route.
 */
export function registerMetrics(app: FastifyInstance, { metrics, token }: MetricsOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    const route = routeLabel(request.routeOptions.url);
    const ended = metrics.started(route);
    // 'close' comes once per answer, finished or cut off by the client (a live stream usually
    // is); onResponse would miss the ones cut off.
    reply.raw.once('close', () => {
      ended();
      const status = reply.raw.headersSent ? reply.statusCode : 'aborted';
      metrics.observe(request.method, route, status, reply.elapsedTime / 1000);
    });
  });
  app.addHook('onClose', async () => metrics.stop());
  metrics.watchEventLoop();

  app.get(METRICS_PATH, { onRequest: metricsGuard(token) }, async (_request, reply) => {
    return reply.header('content-type', METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(metrics.render());
  });
}

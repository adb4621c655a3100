/**
 * Pure figures of `npm run soak`: write tallies and their latency, the issue's targets checked
 * against the mix, the acknowledged writes counted against the rows after a kill -9, the write
 * pacing schedule and the printed tables. No I/O here.
 */
import { percentile, type TargetCheck } from '../bench/stats';

/** The issue's targets for the mix on the 2-core machine (issue 9, "Tests and numbers"). */
export const SOAK_TARGETS = { readsPerSecond: 2000, readP99Ms: 50, writesPerSecond: 100, errors: 0 } as const;

export interface WriteTally {
  /** Answers by kind and status (`add 201`, `update 200`, `delete 409`, `add error`). */
  byStatus: Map<string, number>;
  /** Latency of every answered write (ms). */
  latencies: number[];
  ok: number;
  errors: number;
  /** Ticks of the pacer that found every writer slot busy (the server fell behind the rate). */
  skipped: number;
}

export function newTally(): WriteTally {
  return { byStatus: new Map(), latencies: [], ok: 0, errors: 0, skipped: 0 };
}

/** Counts one write: `status` is the HTTP status, or undefined when the request failed. */
export function recordWrite(tally: WriteTally, kind: string, status: number | undefined, ms: number, expected: number): void {
  const key = `${kind} ${status ?? 'error'}`;
  tally.byStatus.set(key, (tally.byStatus.get(key) ?? 0) + 1);
  if (status !== undefined) tally.latencies.push(ms);
  if (status === expected) tally.ok += 1;
  else tally.errors += 1;
}

export interface ReadFigures {
  /** Mean requests a second over the run. */
  perSecond: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  /** Socket errors, time-outs and non-2xx answers together. */
  errors: number;
  /** Mean bytes of a response body (shows that the compressed variant was served). */
  bytesPerResponse: number;
  /** Content-Encoding of a sample answer with the same headers. */
  encoding: string;
}

export interface MixFigures {
  db: string;
  seconds: number;
  concurrency: number;
  writesWanted: number;
  reads: ReadFigures;
  writes: { perSecond: number; p50: number; p99: number; ok: number; errors: number; skipped: number; byStatus: Record<string, number> };
}

export function summariseWrites(tally: WriteTally, seconds: number): MixFigures['writes'] {
  return {
    perSecond: seconds > 0 ? tally.ok / seconds : Number.NaN,
    p50: percentile(tally.latencies, 0.5),
    p99: percentile(tally.latencies, 0.99),
    ok: tally.ok,
    errors: tally.errors,
    skipped: tally.skipped,
    byStatus: Object.fromEntries([...tally.byStatus].sort(([a], [b]) => a.localeCompare(b))),
  };
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** The mix against the issue's targets (reported, never failed on). */
export function checkMix(m: MixFigures): TargetCheck[] {
  const compressed = m.reads.encoding === 'br' || m.reads.encoding === 'gzip';
  const writesAimed = Math.min(m.writesWanted, SOAK_TARGETS.writesPerSecond);
  return [
    { target: `marker list ≥ ${SOAK_TARGETS.readsPerSecond} req/s, compressed`, measured: `${fmt(m.reads.perSecond, 0)} req/s, ${m.reads.encoding || 'identity'}`, met: m.reads.perSecond >= SOAK_TARGETS.readsPerSecond && compressed },
    { target: `marker list p99 ≤ ${SOAK_TARGETS.readP99Ms} ms`, measured: `${fmt(m.reads.p99, 0)} ms (p50 ${fmt(m.reads.p50, 0)} ms)`, met: m.reads.p99 <= SOAK_TARGETS.readP99Ms },
    {
      target: `while ${SOAK_TARGETS.writesPerSecond} admin writes/s go on`,
      measured: `${fmt(m.writes.perSecond, 1)} writes/s (p50 ${fmt(m.writes.p50, 0)} ms, p99 ${fmt(m.writes.p99, 0)} ms)`,
      met: m.writesWanted < SOAK_TARGETS.writesPerSecond ? null : m.writes.perSecond >= writesAimed * 0.95,
    },
    { target: `${SOAK_TARGETS.errors} errors`, measured: `${m.reads.errors} read, ${m.writes.errors} write`, met: m.reads.errors + m.writes.errors === SOAK_TARGETS.errors },
  ];
}

export interface LossCount {
  /** Acknowledged writes (uids with the highest acknowledged version). */
  acknowledged: number;
  /** Of those, rows found at that version or later. */
  kept: number;
  /** Acknowledged uids missing after the restart. */
  missing: string[];
  /** Acknowledged uids present at an older version than acknowledged (an acknowledged update lost). */
  behind: string[];
  /** Writes sent but not acknowledged (cut by the kill) that are stored anyway: allowed. */
  storedUnacknowledged: number;
}

/**
 * Acknowledged writes (uid → highest acknowledged version) against the rows after a restart
 * (uid → version); `attempted` are all uids sent, acknowledged or not.
 */
export function countLost(acknowledged: ReadonlyMap<string, number>, stored: ReadonlyMap<string, number>, attempted: Iterable<string> = []): LossCount {
  const missing: string[] = [];
  const behind: string[] = [];
  for (const [uid, version] of acknowledged) {
    const now = stored.get(uid);
    if (now === undefined) missing.push(uid);
    else if (now < version) behind.push(uid);
  }
  let storedUnacknowledged = 0;
  for (const uid of new Set(attempted)) if (!acknowledged.has(uid) && stored.has(uid)) storedUnacknowledged += 1;
  return { acknowledged: acknowledged.size, kept: acknowledged.size - missing.length - behind.length, missing, behind, storedUnacknowledged };
}

/**
 * The pacer's schedule: write `i` is due `i / rate` seconds after the start (ms from start).
 * Open loop: a slow answer does not delay the next write, so the rate is the offered load.
 */
export function dueAt(i: number, perSecond: number): number {
  if (!(perSecond > 0)) throw new RangeError(`rate ${perSecond}`);
  return (i * 1000) / perSecond;
}

/** One row per target: ✓ met, ✗ missed, – not measured. */
export function formatChecks(checks: readonly TargetCheck[]): string[] {
  return checks.map((c) => `  ${c.met === null ? '–' : c.met ? '✓' : '✗'} ${c.target}: ${c.measured}`);
}

export function formatMix(m: MixFigures): string[] {
  const statuses = Object.entries(m.writes.byStatus).map(([k, n]) => `${k}×${n}`).join(', ');
  return [
    `read/write mix on ${m.db}: ${m.seconds} s, ${m.concurrency} reader connections, ${m.writesWanted} writes/s offered`,
    `  reads  GET /api/be/markers/list?map=customs (accept-encoding: br, gzip): ${fmt(m.reads.perSecond, 0)} req/s (${m.reads.requests} requests), p50 ${fmt(m.reads.p50, 0)} ms, p99 ${fmt(m.reads.p99, 0)} ms, max ${fmt(m.reads.max, 0)} ms, ${m.reads.errors} errors, ${fmt(m.reads.bytesPerResponse / 1024, 1)} KiB a response (${m.reads.encoding || 'identity'})`,
    `  writes ${fmt(m.writes.perSecond, 1)} acknowledged/s (${m.writes.ok} ok, ${m.writes.errors} errors, ${m.writes.skipped} ticks skipped with every writer busy), p50 ${fmt(m.writes.p50, 0)} ms, p99 ${fmt(m.writes.p99, 0)} ms; ${statuses || 'none'}`,
    ...formatChecks(checkMix(m)),
  ];
}

export function formatLoss(db: string, loss: LossCount, extra: { killedAtMs: number; sent: number; restartMs: number }): string[] {
  const lost = loss.missing.length + loss.behind.length;
  const sample = [...loss.missing, ...loss.behind].slice(0, 5).join(', ');
  return [
    `kill -9 during a write burst on ${db}: killed ${extra.killedAtMs} ms into the burst after ${extra.sent} writes sent; restarted in ${extra.restartMs} ms`,
    `  ${loss.acknowledged} acknowledged writes, ${loss.kept} found at their acknowledged version or later, ${loss.missing.length} missing, ${loss.behind.length} at an older version; ${loss.storedUnacknowledged} unacknowledged writes stored anyway (allowed)`,
    `  ${lost === 0 ? '✓' : '✗'} 0 acknowledged writes lost: ${lost} lost${sample ? ` (${sample})` : ''}`,
  ];
}

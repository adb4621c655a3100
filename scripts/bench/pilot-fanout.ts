/**
 * The live feed's fan-out (issue 10): `clients` pages subscribed to one pairing code (plain
 * server-sent-event streams opened from this process, as many EventSources would be), and a
 * publisher posting a position every `intervalMs` (the watcher's pace: one per screenshot, the
 * page's ping every 2 s) for `seconds`.
 *
 * Delivery latency of one position to one client: from just before its POST is sent to the
 * moment that client's stream has the whole event (one machine, one clock). Every client must
 * receive every position; a stream that ends before the run does is a dropped connection.
 */
import http from 'node:http';
import { summariseLatency, type LatencySummary } from './editor-stats';

export interface PilotFanoutOptions {
  baseUrl: string;
  clients: number;
  seconds: number;
  intervalMs?: number;
  log(message: string): void;
}

export interface PilotFanoutResult {
  clients: number;
  published: number;
  /** Publish → event complete at each client, over every (client, position). */
  delivery: LatencySummary;
  /** Positions a client never received by the end of the run (summed over clients). */
  missed: number;
  /** Streams that ended or failed before the run was over. */
  dropped: number;
  /** Streams that never opened. */
  failedToOpen: number;
}

interface Client {
  request: http.ClientRequest;
  ended: boolean;
  received: Map<number, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens one SSE stream; resolves once the server answered 200 (the stream is subscribed). */
function openClient(url: string, agent: http.Agent, onEnd: () => void): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client: Client = { request: null as unknown as http.ClientRequest, ended: false, received: new Map() };
    const request = http.get(url, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`stream: HTTP ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        const now = performance.timeOrigin + performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!block.includes('event: pilot') || !data) continue;
          const event = JSON.parse(data.slice(6)) as { type: string; data: { x: number } };
          // The x of each position is its sequence number (see below).
          if (event.type === 'position' && !client.received.has(event.data.x)) client.received.set(event.data.x, now);
        }
      });
      const ended = () => {
        if (client.ended) return;
        client.ended = true;
        onEnd();
      };
      response.on('end', ended);
      response.on('error', ended);
      response.on('close', ended);
      resolve(client);
    });
    client.request = request;
    request.on('error', reject);
    request.setTimeout(60_000, () => request.destroy(new Error('stream: no answer in 60 s')));
  });
}

export async function measurePilotFanout(options: PilotFanoutOptions): Promise<PilotFanoutResult> {
  const { baseUrl, clients: count, seconds, log } = options;
  const intervalMs = options.intervalMs ?? 2000;
  const created = await fetch(`${baseUrl}/api/be/pilot/pairings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (created.status !== 201) throw new Error(`pairing: HTTP ${created.status} ${await created.text()}`);
  const { code, token } = (await created.json()) as { code: string; token: string };
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const url = `${baseUrl}/api/be/pilot/${code}/events`;
  let running = true;
  let dropped = 0;
  let failedToOpen = 0;
  const clients: Client[] = [];
  try {
    // Opened in batches, as pages arriving one after another would.
    for (let i = 0; i < count; i += 50) {
      const batch = await Promise.allSettled(
        Array.from({ length: Math.min(50, count - i) }, () =>
          openClient(url, agent, () => {
            if (running) dropped += 1;
          }),
        ),
      );
      for (const outcome of batch) {
        if (outcome.status === 'fulfilled') clients.push(outcome.value);
        else failedToOpen += 1;
      }
    }
    log(`bench: pilot: ${clients.length} streams open on ${code} (${failedToOpen} failed to open)`);
    const sentAt = new Map<number, number>();
    const publishes = Math.max(1, Math.floor((seconds * 1000) / intervalMs));
    for (let seq = 1; seq <= publishes; seq += 1) {
      const started = performance.timeOrigin + performance.now();
      sentAt.set(seq, started);
      const response = await fetch(`${baseUrl}/api/be/pilot/${code}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ type: 'position', data: { x: seq, y: 0, z: 0, look: 0 } }),
      });
      if (!response.ok) throw new Error(`publish: HTTP ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      await sleep(Math.max(0, intervalMs - (performance.timeOrigin + performance.now() - started)));
    }
    // The last position's deliveries have the whole interval; a little more for a slow machine.
    await sleep(1000);
    running = false;
    const latencies: number[] = [];
    let missed = 0;
    for (const client of clients) {
      for (const [seq, at] of sentAt) {
        const got = client.received.get(seq);
        if (got === undefined) missed += 1;
        else latencies.push(got - at);
      }
    }
    return { clients: clients.length, published: sentAt.size, delivery: summariseLatency(latencies), missed, dropped, failedToOpen };
  } finally {
    running = false;
    for (const client of clients) client.request.destroy();
    agent.destroy();
    await fetch(`${baseUrl}/api/be/pilot/${code}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
  }
}

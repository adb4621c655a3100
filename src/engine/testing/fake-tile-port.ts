/**
 * A tile worker's port for tests: records what the page sends, replies on demand, and says
 * whether it was terminated. Shared by the tile fetcher's and the early tiles' tests.
 */
import type { TilePort, TileWorkerRequest, TileWorkerResponse } from '../tile-fetch-protocol';

export type FakeTilePort = TilePort & { sent: TileWorkerRequest[]; reply(r: TileWorkerResponse): void; terminated: boolean };

export function fakeTilePort(): FakeTilePort {
  const sent: TileWorkerRequest[] = [];
  const port: FakeTilePort = {
    sent,
    terminated: false,
    onmessage: null,
    postMessage: (m) => void sent.push(m),
    terminate() {
      port.terminated = true;
    },
    reply(r) {
      port.onmessage?.({ data: r } as MessageEvent<TileWorkerResponse>);
    },
  };
  return port;
}

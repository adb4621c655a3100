/** A render worker's port for tests: keeps what the page sent, and answers as the worker would. */
import type { FromRenderWorker, ToRenderWorker } from '../render-worker/protocol';
import type { RenderPort } from '../render-worker/worker-scene';

export class FakeRenderPort implements RenderPort {
  readonly sent: { message: ToRenderWorker; transfer?: Transferable[] }[] = [];
  onmessage: ((event: MessageEvent<FromRenderWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;

  postMessage(message: ToRenderWorker, transfer?: Transferable[]): void {
    this.sent.push({ message, transfer });
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The worker says `message`. */
  answer(message: FromRenderWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromRenderWorker>);
  }
}

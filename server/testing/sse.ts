/**
 * A server-sent-events reader for tests against a real listening server: fetch the stream and
 * take its messages one by one, each with a time limit.
 */

export interface SseMessage {
  event?: string;
  data?: string;
  retry?: number;
  /** Text of a comment line (`: ping` → 'ping'). */
  comment?: string;
}

export interface SseStream {
  response: Response;
  /** Every message read so far, in order. */
  seen: SseMessage[];
  /** The next message (after the ones already taken) that matches; rejects after `timeoutMs`. */
  next(match?: (message: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** Resolves true when the server ends the stream within `timeoutMs`. */
  ended(timeoutMs?: number): Promise<boolean>;
  close(): void;
}

export function parseSseBlock(block: string): SseMessage {
  const message: SseMessage = {};
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line.startsWith(':')) {
      message.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') message.event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry') message.retry = Number(value);
  }
  if (data.length > 0) message.data = data.join('\n');
  return message;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const seen: SseMessage[] = [];
  let buffer = '';
  let taken = 0;
  let done = false;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;

  const readMore = async (deadline: number): Promise<void> => {
    pending ??= reader.read();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
    });
    const result = await Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
    if (result === 'timeout') throw new Error('timed out waiting for a server-sent event');
    pending = null;
    if (result.done) {
      done = true;
      return;
    }
    buffer += decoder.decode(result.value, { stream: true });
    let cut: number;
    while ((cut = buffer.search(/\r\n\r\n|\n\n|\r\r/)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^(\r\n\r\n|\n\n|\r\r)/, '');
      if (block.trim() !== '') seen.push(parseSseBlock(block));
    }
  };

  return {
    response,
    seen,
    async next(match = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (taken < seen.length) {
          const message = seen[taken++];
          if (match(message)) return message;
        }
        if (done) throw new Error('the stream ended');
        await readMore(deadline);
      }
    },
    async ended(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      try {
        while (!done) await readMore(deadline);
        return true;
      } catch (error) {
        // A reset connection ends the stream too; only the time limit says it did not end.
        return !String((error as Error)?.message).startsWith('timed out');
      }
    },
    close() {
      controller.abort();
      reader.cancel().catch(() => {});
    },
  };
}

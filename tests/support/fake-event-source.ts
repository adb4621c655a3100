/** Test double of the browser's EventSource (src/api/live.test.ts, src/state/pilot.test.ts). */
/** Just enough of EventSource: tests drive open, error and messages by hand. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  private readonly listeners = new Map<string, Set<(event: { data?: string }) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: { data?: string }) => void): void {
    (this.listeners.get(type) ?? this.listeners.set(type, new Set()).get(type)!).add(listener);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  emit(type: string, event: { data?: string } = {}): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.emit('open');
  }

  fail(givesUp = false): void {
    this.readyState = givesUp ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.emit('error');
  }

  /** A message of the event `type` (`marker` by default): a string is sent as it is, anything else as JSON. */
  send(data: unknown, type = 'marker'): void {
    this.emit(type, { data: typeof data === 'string' ? data : JSON.stringify(data) });
  }

  /** The newest instance (the stream a subscription holds now). */
  static last(): FakeEventSource {
    const last = FakeEventSource.instances.at(-1);
    if (!last) throw new Error('no EventSource was opened');
    return last;
  }
}

/**
 * What is waiting to be sent while a request is in flight (or the server is down). Only the
 * newest position matters: a burst of screenshots, or positions taken while the server was
 * down, come down to the last one, and a map change makes every position waiting before it
 * stale (it was on the previous map). Map changes are never dropped: they wait in order (a
 * repeat of the last waiting one is not queued twice), and the position waits behind them.
 */
import type { PilotMessage } from '../../src/domain/pilot';

export type OutboxMessage = Exclude<PilotMessage, { type: 'ping' }>;
type MapMessage = Extract<OutboxMessage, { type: 'map' }>;
type PositionMessage = Extract<OutboxMessage, { type: 'position' }>;

export class Outbox {
  private readonly maps: MapMessage[] = [];
  private position: PositionMessage | null = null;
  /** Positions replaced by a newer one or made stale by a map change, never sent. */
  dropped = 0;

  get size(): number {
    return this.maps.length + (this.position ? 1 : 0);
  }

  /**
   * Sends `map` again first, unless a map change waits already (it supersedes it). The waiting
   * position stays: it was taken on this map.
   */
  resendMap(map: MapMessage): void {
    if (this.maps.length === 0) this.maps.push(map);
  }

  /** Sends `position` again after the waiting map changes, unless a newer position waits. */
  resendPosition(position: PositionMessage): void {
    if (this.position === null) this.position = position;
  }

  /** Adds a message that just happened. */
  put(message: OutboxMessage): void {
    if (this.position) this.dropped++;
    this.position = null;
    if (message.type === 'map') {
      if (this.maps.at(-1)?.data.map !== message.data.map) this.maps.push(message);
    } else this.position = message;
  }

  /** The next message to send (map changes first, in order, then the position on the last map), or null. */
  take(): OutboxMessage | null {
    const map = this.maps.shift();
    if (map) return map;
    const position = this.position;
    this.position = null;
    return position;
  }

  /**
   * Puts back a message whose sending failed. A map change goes back to the front (what came
   * after it stays after it); a position only when nothing newer took its place meanwhile.
   */
  putBack(message: OutboxMessage): void {
    if (message.type === 'map') {
      if (this.maps[0]?.data.map !== message.data.map) this.maps.unshift(message);
    } else if (this.position === null && this.maps.length === 0) this.position = message;
    else this.dropped++;
  }
}

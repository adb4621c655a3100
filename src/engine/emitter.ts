/** A tiny typed event emitter; a throwing listener is reported and does not stop the others. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => void set.delete(listener as (payload: never) => void);
  }

  has<K extends keyof Events>(event: K): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const l of [...set]) {
      try {
        (l as (p: Events[K]) => void)(payload);
      } catch (error) {
        console.error(`raidmap: a "${String(event)}" listener threw:`, error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

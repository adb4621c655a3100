/**
 * A small state tree (after tldraw's StateNode): a node has an id, optional child states
 * (the first is the initial one), enter/exit hooks and per-event handlers. Events go to the
 * deepest current state first and bubble up until a node handles them.
 */
import type { ToolContext, ToolEvent, ToolEventOf, ToolEventType } from './events';

/** Handler method for each event type. */
export const HANDLER_NAMES = {
  pointer_down: 'onPointerDown',
  pointer_move: 'onPointerMove',
  pointer_up: 'onPointerUp',
  pointer_cancel: 'onPointerCancel',
  pointer_leave: 'onPointerLeave',
  wheel: 'onWheel',
  double_click: 'onDoubleClick',
  key_down: 'onKeyDown',
  key_up: 'onKeyUp',
} as const satisfies Record<ToolEventType, string>;

type HandlerName<T extends ToolEventType> = (typeof HANDLER_NAMES)[T];
export type StateHandlers = { [T in ToolEventType as HandlerName<T>]?: (event: ToolEventOf<T>) => void | boolean };

export abstract class StateNode {
  abstract readonly id: string;
  parent: StateNode | null = null;
  readonly children = new Map<string, StateNode>();
  private currentChild: StateNode | null = null;
  private initialChild: string | null = null;
  private readonly changeListeners = new Set<() => void>();

  constructor(protected readonly ctx: ToolContext) {}

  protected addChildren(...nodes: StateNode[]): void {
    for (const node of nodes) {
      node.parent = this;
      this.children.set(node.id, node);
      this.initialChild ??= node.id;
    }
  }

  /** Called when the state becomes current; `info` is what the transition passed along. */
  onEnter?(info: unknown): void;
  onExit?(): void;

  /** Removes a child state (not the current one). */
  protected removeChild(id: string): void {
    if (this.currentChild?.id === id) throw new Error(`state "${this.id}" cannot remove its current child "${id}"`);
    this.children.delete(id);
    if (this.initialChild === id) this.initialChild = this.children.keys().next().value ?? null;
  }

  /** The child to start in; override to pick one from the transition's `info` (e.g. `draw` → `rect`). */
  protected initialChildFor(_info: unknown): string | null {
    return this.initialChild;
  }

  enter(info?: unknown): void {
    this.onEnter?.(info);
    const first = this.initialChildFor(info);
    if (first) {
      const child = this.children.get(first);
      if (!child) throw new Error(`state "${this.id}" has no child "${first}"`);
      this.currentChild = child;
      child.enter(info);
    }
  }

  exit(): void {
    this.currentChild?.exit();
    this.currentChild = null;
    this.onExit?.();
  }

  get current(): StateNode | null {
    return this.currentChild;
  }

  /** Switches this node's current child. */
  transitionChild(id: string, info?: unknown): void {
    const next = this.children.get(id);
    if (!next) throw new Error(`state "${this.id}" has no child "${id}"`);
    this.currentChild?.exit();
    this.currentChild = next;
    next.enter(info);
    this.root().notifyChange();
  }

  /** Moves to a sibling state (the usual call from inside a state). */
  protected transition(id: string, info?: unknown): void {
    if (!this.parent) throw new Error(`state "${this.id}" has no parent to transition in`);
    this.parent.transitionChild(id, info);
  }

  /** Dispatches an event depth-first; true when some state handled it. */
  handle(event: ToolEvent): boolean {
    if (this.currentChild?.handle(event)) return true;
    const handler = (this as unknown as Record<string, ((e: ToolEvent) => void | boolean) | undefined>)[HANDLER_NAMES[event.type]];
    if (typeof handler !== 'function') return false;
    // A handler that returns false passes the event on to its parent (e.g. a double-click on
    // no handle falls through to the map-wide zoom).
    return handler.call(this, event) !== false;
  }

  /** Dotted path of the current states, e.g. `pan.dragging`. */
  path(): string {
    return this.currentChild ? `${this.id}.${this.currentChild.path()}` : this.id;
  }

  protected root(): StateNode {
    return this.parent ? this.parent.root() : this;
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  protected notifyChange(): void {
    for (const l of this.changeListeners) l();
  }
}

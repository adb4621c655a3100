/**
 * Holds the registered tools and the current one, and routes normalised input events to it.
 * Events a tool leaves unhandled fall to the map-wide defaults: wheel zoom (Alt+wheel steps the
 * level instead, and never zooms), double-click zoom in, Escape back to pan. New tools (the
 * admin draw / edit / move tools) slot in with `register` without touching the engine.
 */
import { DOUBLE_CLICK_FACTOR, wheelZoomFactor } from '../engine/kernels/camera';
import type { ToolContext, ToolEvent } from './events';
import { PanTool } from './pan-tool';
import type { StateNode } from './state-node';

export type ToolFactory = (ctx: ToolContext) => StateNode;

export const DEFAULT_TOOL = 'pan';

export class ToolManager {
  private readonly factories = new Map<string, ToolFactory>();
  private tool: StateNode;
  private unsubscribeTool: () => void = () => {};
  private readonly listeners = new Set<(path: string) => void>();

  constructor(private readonly ctx: ToolContext) {
    this.factories.set(DEFAULT_TOOL, (c) => new PanTool(c));
    this.tool = this.instantiate(DEFAULT_TOOL);
    this.unsubscribeTool = this.tool.onChange(() => this.emit());
    this.tool.enter();
  }

  /** Adds (or replaces) a tool; the factory's node id must equal `id`. */
  register(id: string, factory: ToolFactory): void {
    if (!/^[a-z][a-z0-9-]*$/.test(id)) throw new Error(`invalid tool id "${id}"`);
    this.factories.set(id, factory);
  }

  has(id: string): boolean {
    return this.factories.has(id);
  }

  /** Switches tool: the old one exits (from whatever state it is in), the new one enters its initial state. */
  setTool(id: string): void {
    if (!this.factories.has(id)) throw new Error(`unknown tool "${id}" (registered: ${[...this.factories.keys()].join(', ')})`);
    const next = this.instantiate(id);
    this.tool.exit();
    this.unsubscribeTool();
    this.tool = next;
    this.unsubscribeTool = next.onChange(() => this.emit());
    next.enter();
    this.emit();
  }

  get currentTool(): string {
    return this.tool.id;
  }

  /** Current state path, e.g. `pan.dragging` (the admin status bar shows it). */
  path(): string {
    return this.tool.path();
  }

  onPathChange(listener: (path: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispatch(event: ToolEvent): void {
    if (this.tool.handle(event)) return;
    switch (event.type) {
      case 'wheel': {
        if (event.altKey) {
          if (event.deltaY !== 0) this.ctx.levelStep(event.deltaY < 0 ? 1 : -1);
          return;
        }
        if (!this.ctx.isZoomEnabled()) return;
        const factor = wheelZoomFactor(event.deltaY);
        if (factor !== 1) this.ctx.zoomAt(factor, event.screenX, event.screenY);
        return;
      }
      case 'double_click':
        if (this.ctx.isZoomEnabled()) this.ctx.zoomAt(DOUBLE_CLICK_FACTOR, event.screenX, event.screenY);
        return;
      case 'key_down':
        if (event.key === 'Escape' && this.tool.id !== DEFAULT_TOOL) this.setTool(DEFAULT_TOOL);
        return;
      default:
        return;
    }
  }

  dispose(): void {
    this.tool.exit();
    this.unsubscribeTool();
    this.listeners.clear();
  }

  private instantiate(id: string): StateNode {
    const node = this.factories.get(id)!(this.ctx);
    if (node.id !== id) throw new Error(`tool factory for "${id}" made a node with id "${node.id}"`);
    return node;
  }

  private emit(): void {
    const path = this.path();
    for (const l of this.listeners) l(path);
  }
}

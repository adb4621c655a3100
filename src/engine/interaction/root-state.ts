/**
 * The root of the interaction state tree (tldraw's pattern): its children are the tools (`pan`,
 * `draw`, `edit`, `move`), registered from outside so the engine never imports a concrete
 * tool. Events go to the current tool's deepest state first; what no tool handles falls to
 * the root, whose handlers are the map-wide defaults and transitions:
 *
 *   wheel            zoom around the cursor (Alt + wheel steps the level and never zooms)
 *   double-click     zoom in one step
 *   Escape           → pan (the popup closes itself)
 *   m                pan/draw/edit ⇄ move (when a move tool is registered: admins)
 *   l                → draw.marker, the last marker tool (when a draw tool is registered)
 *   Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y   undo, redo (the host's)
 *
 * `toggleEdit()` is the edit toggle (pan ⇄ edit). The path without the root, e.g.
 * `draw.rect.drawing`, is what the admin status bar shows.
 */
import { DOUBLE_CLICK_FACTOR, wheelZoomFactor } from '../kernels/camera';
import type { ToolContext, ToolEventOf } from './events';
import { StateNode } from './state-node';

export type ToolFactory = (ctx: ToolContext) => StateNode;

export const DEFAULT_TOOL = 'pan';

export class RootState extends StateNode {
  readonly id = 'root';

  constructor(ctx: ToolContext, factories: readonly ToolFactory[]) {
    super(ctx);
    for (const factory of factories) this.register(factory);
    if (!this.children.has(DEFAULT_TOOL)) throw new Error(`the interaction tree needs a "${DEFAULT_TOOL}" tool`);
  }

  /** Adds (or replaces) a tool; its node id names it. */
  register(factory: ToolFactory): void {
    const node = factory(this.ctx);
    if (!/^[a-z][a-z0-9-]*$/.test(node.id)) throw new Error(`invalid tool id "${node.id}"`);
    const replacing = this.current?.id === node.id;
    if (replacing) this.setTool(DEFAULT_TOOL);
    if (this.children.has(node.id)) this.removeChild(node.id);
    this.addChildren(node);
  }

  /** Removes a tool (an admin signed out); leaving it first if it is current. `pan` stays. */
  unregister(id: string): void {
    if (id === DEFAULT_TOOL || !this.children.has(id)) return;
    if (this.current?.id === id) this.setTool(DEFAULT_TOOL);
    this.removeChild(id);
  }

  has(id: string): boolean {
    return this.children.has(id);
  }

  /** Switches tool: the old one exits (from whatever state it is in), the new one enters. */
  setTool(id: string, info?: unknown): void {
    if (!this.children.has(id)) throw new Error(`unknown tool "${id}" (registered: ${[...this.children.keys()].join(', ')})`);
    this.transitionChild(id, info);
  }

  get currentTool(): string {
    return this.current?.id ?? DEFAULT_TOOL;
  }

  /** The edit toggle (spec §4): pan ⇄ edit, any other state → edit; clears the draw tool. */
  toggleEdit(): void {
    if (!this.has('edit')) return;
    this.setTool(this.currentTool === 'edit' ? DEFAULT_TOOL : 'edit');
  }

  /** Key m / the Move button (spec §4): → move, and from move back to pan. */
  toggleMove(): void {
    if (!this.has('move')) return;
    this.setTool(this.currentTool === 'move' ? DEFAULT_TOOL : 'move');
  }

  /** Current state path without the root, e.g. `pan.dragging`. */
  override path(): string {
    return this.current ? this.current.path() : this.id;
  }

  onWheel(e: ToolEventOf<'wheel'>): void {
    if (e.altKey) {
      if (e.deltaY !== 0) this.ctx.levelStep(e.deltaY < 0 ? 1 : -1);
      return;
    }
    if (!this.ctx.isZoomEnabled()) return;
    const factor = wheelZoomFactor(e.deltaY);
    if (factor !== 1) this.ctx.zoomAt(factor, e.screenX, e.screenY);
  }

  onDoubleClick(e: ToolEventOf<'double_click'>): void {
    if (this.ctx.isZoomEnabled()) this.ctx.zoomAt(DOUBLE_CLICK_FACTOR, e.screenX, e.screenY);
  }

  onKeyDown(e: ToolEventOf<'key_down'>): void {
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const command = e.ctrlKey || e.metaKey;
    if (key === 'Escape') {
      if (this.currentTool !== DEFAULT_TOOL) this.setTool(DEFAULT_TOOL);
      return;
    }
    if (command) {
      if (!this.has('edit') && !this.has('draw') && !this.has('move')) return;
      if ((key === 'z' && e.shiftKey) || key === 'y') this.ctx.host.redo();
      else if (key === 'z') this.ctx.host.undo();
      return;
    }
    if (e.altKey) return;
    if (key === 'm') this.toggleMove();
    else if (key === 'l' && this.has('draw')) this.setTool('draw', { shape: 'marker' });
  }
}

/**
 * The root of the interaction state tree (tldraw's pattern): its children are the tools (`pan`,
 * `draw`, `edit`, `move`), registered from outside so the engine never imports a concrete
 * tool. Events go to the current tool's deepest state first; what no tool handles falls to
 * the root, whose handlers are the map-wide defaults and transitions:
 *
 *   wheel            zoom around the cursor (Alt + wheel steps the level and never zooms)
 *   double-click     zoom in one step
 *   Escape           → pan, no shape selected (the popup closes itself)
 *   m                pan/draw/edit ⇄ move (when a move tool is registered: admins)
 *   l                → draw.marker, the last marker tool (when a draw tool is registered)
 *   1 … 8            → draw.<the nth shape type> (SHAPE_TYPES' order, the tools panel's), the same
 *                    number again → pan (as the panel's button pressed again)
 *   e                the edit toggle (when an edit tool is registered)
 *   Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y   undo, redo (the host's)
 *
 * The letters are read as typed, or by the physical key where the layout types a letter of
 * another script there (domain/keyboard-layout.ts `shortcutKey`: Russian д on the L key is l).
 *   two fingers      pinch: zoom by the ratio of their distances around their midpoint, pan by
 *                    the midpoint's movement (kernels/pinch.ts), in every tool
 *
 * Pinch comes before the tools: the tools only ever see one finger. A second finger down cancels
 * the current tool's gesture (it hears `pointer_cancel`, so a press never becomes a tap or a
 * drag), and until every finger has lifted the fingers go to the pinch alone: lifting one
 * finger ends the zoom, and the one left neither pans nor taps (no popup from a pinch).
 *
 * `toggleEdit()` is the edit toggle (pan ⇄ edit). The path without the root, e.g.
 * `draw.rect.drawing`, is what the admin status bar shows.
 */
import { DOUBLE_CLICK_FACTOR, wheelZoomFactor } from '../kernels/camera';
import { pinchStep, type TouchPoint } from '../kernels/pinch';
import { SHAPE_TYPES } from '../../domain/shape-geometry';
import { shortcutKey } from '../../domain/keyboard-layout';
import type { ToolContext, ToolEvent, ToolEventOf } from './events';
import { StateNode } from './state-node';

export type ToolFactory = (ctx: ToolContext) => StateNode;

export const DEFAULT_TOOL = 'pan';

/** The fingers on the map, by pointer id, and whether they are a pinch. */
interface Fingers {
  down: Map<number, TouchPoint>;
  /** The two fingers of the pinch (first down first), or null: no pinch. */
  pinch: [number, number] | null;
  /** A pinch ran since the last moment no finger was down: the fingers left go nowhere. */
  consumed: boolean;
}

export class RootState extends StateNode {
  readonly id = 'root';
  private readonly fingers: Fingers = { down: new Map(), pinch: null, consumed: false };

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

  /** Whether two fingers are pinching now. */
  get pinching(): boolean {
    return this.fingers.pinch !== null;
  }

  /** Touch pointers go through the pinch first; everything else goes to the tools as before. */
  override handle(event: ToolEvent): boolean {
    if (this.handleFingers(event)) return true;
    return super.handle(event);
  }

  /** True when a finger's event belongs to a pinch (started, running or just ended). */
  private handleFingers(event: ToolEvent): boolean {
    const f = this.fingers;
    switch (event.type) {
      case 'pointer_down': {
        if (event.pointerType !== 'touch') return false;
        f.down.set(event.pointerId, { x: event.screenX, y: event.screenY });
        if (f.pinch || f.consumed) return true;
        if (f.down.size < 2) return false;
        const [first, second] = [...f.down.keys()];
        // The first finger's press (pointing or dragging) is over: no tap, no more pan.
        super.handle({ type: 'pointer_cancel', time: event.time, pointerId: first });
        f.pinch = [first, second];
        f.consumed = true;
        return true;
      }
      case 'pointer_move': {
        const before = f.down.get(event.pointerId);
        if (!before) return false;
        const now = { x: event.screenX, y: event.screenY };
        if (f.pinch && f.pinch.includes(event.pointerId)) {
          const [a, b] = f.pinch;
          const pair = (id: number, p: TouchPoint): TouchPoint => (id === event.pointerId ? p : f.down.get(id)!);
          const step = pinchStep([pair(a, before), pair(b, before)], [pair(a, now), pair(b, now)]);
          f.down.set(event.pointerId, now);
          if (step.dx !== 0 || step.dy !== 0) this.ctx.panBy(step.dx, step.dy);
          if (step.factor !== 1 && this.ctx.isZoomEnabled()) this.ctx.zoomAt(step.factor, step.x, step.y);
          return true;
        }
        f.down.set(event.pointerId, now);
        return f.consumed;
      }
      case 'pointer_up':
      case 'pointer_cancel': {
        if (!f.down.delete(event.pointerId)) return false;
        if (f.pinch?.includes(event.pointerId)) f.pinch = null;
        const consumed = f.consumed;
        if (f.down.size === 0) f.consumed = false;
        return consumed;
      }
      default:
        return false;
    }
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
    // By letter, or by the physical key where the layout types no Latin letter (Russian: д is l).
    const key = shortcutKey(e.key, e.code);
    const command = e.ctrlKey || e.metaKey;
    if (key === 'Escape') {
      if (this.currentTool !== DEFAULT_TOOL) this.setTool(DEFAULT_TOOL);
      // A shape left selected in pan kept its handles and panel, and nothing in pan could drop it.
      if (this.ctx.host.selectedShape() !== null) this.ctx.host.selectShape(null);
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
    else if (key === 'e') this.toggleEdit();
    else if (key === 'l' && this.has('draw')) this.setTool('draw', { shape: 'marker' });
    else if (/^[1-9]$/.test(key) && this.has('draw')) this.toggleDrawTool(SHAPE_TYPES[Number(key) - 1]);
  }

  /** A draw tool by its number: → draw.<shape>; the current one again → pan. */
  private toggleDrawTool(shape: string | undefined): void {
    if (!shape) return;
    const [tool, current] = this.path().split('.');
    if (tool === 'draw' && current === shape) this.setTool(DEFAULT_TOOL);
    else this.setTool('draw', { shape });
  }
}

/**
 * Normalised input events the tools handle (screen coordinates in CSS pixels of the map
 * container, time in ms), and the context through which tools act on the map.
 */
export interface Modifiers {
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

export interface PointerInfo extends Modifiers {
  screenX: number;
  screenY: number;
  time: number;
  /** 0 primary, 1 middle, 2 secondary. */
  button: number;
  pointerId: number;
}

export type ToolEvent =
  | ({ type: 'pointer_down' } & PointerInfo)
  | ({ type: 'pointer_move' } & PointerInfo)
  | ({ type: 'pointer_up' } & PointerInfo)
  | { type: 'pointer_cancel'; time: number; pointerId: number }
  | { type: 'pointer_leave'; time: number }
  | ({ type: 'wheel'; screenX: number; screenY: number; time: number; /** Pixels, deltaMode normalised. */ deltaY: number } & Modifiers)
  | ({ type: 'double_click'; screenX: number; screenY: number; time: number } & Modifiers)
  | ({ type: 'key_down'; key: string; time: number } & Modifiers)
  | ({ type: 'key_up'; key: string; time: number } & Modifiers);

export type ToolEventType = ToolEvent['type'];
export type ToolEventOf<T extends ToolEventType> = Extract<ToolEvent, { type: T }>;

/** What a tool may do to the map. The engine implements it; tests use a recording fake. */
export interface ToolContext {
  /** Moves the map by a screen delta (the map follows the pointer). */
  panBy(screenDx: number, screenDy: number): void;
  /** Zooms by a factor around a screen point. */
  zoomAt(factor: number, screenX: number, screenY: number): void;
  /** False while the pointer is over a popup (spec §4). */
  isZoomEnabled(): boolean;
  /** Uid of the drawn marker under a screen point, or null. */
  hitTest(screenX: number, screenY: number): string | null;
  /** Marker under the pointer for hover label and cursor (null: none). */
  setHover(uid: string | null): void;
  setCursor(cursor: string): void;
  toMap(screenX: number, screenY: number): { x: number; y: number };
  markerClick(uid: string): void;
  mapClick(mapX: number, mapY: number): void;
  levelStep(direction: 1 | -1): void;
}

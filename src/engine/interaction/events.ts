/**
 * Normalised input events the tools handle (screen coordinates in CSS pixels of the map
 * container, time in ms), the context through which tools act on the map, and the host: the
 * page's editor commands, which the engine passes through without knowing what they do.
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
  /** PointerEvent.pointerType: 'mouse', 'pen' or 'touch' (absent: a mouse). */
  pointerType?: string;
}

export type ToolEvent =
  | ({ type: 'pointer_down' } & PointerInfo)
  | ({ type: 'pointer_move' } & PointerInfo)
  | ({ type: 'pointer_up' } & PointerInfo)
  | { type: 'pointer_cancel'; time: number; pointerId: number }
  | { type: 'pointer_leave'; time: number }
  | ({ type: 'wheel'; screenX: number; screenY: number; time: number; /** Pixels, deltaMode normalised. */ deltaY: number } & Modifiers)
  | ({ type: 'double_click'; screenX: number; screenY: number; time: number } & Modifiers)
  | ({ type: 'key_down'; key: string; /** KeyboardEvent.code: the physical key (letter shortcuts on a Cyrillic layout). */ code?: string; time: number } & Modifiers)
  | ({ type: 'key_up'; key: string; code?: string; time: number } & Modifiers);

export type ToolEventType = ToolEvent['type'];
export type ToolEventOf<T extends ToolEventType> = Extract<ToolEvent, { type: T }>;

export interface MapPoint {
  x: number;
  y: number;
}

/** An edit handle of the selected shape (map pixels): a control point, or a segment's midpoint. */
export interface EditHandle {
  kind: 'point' | 'mid';
  index: number;
  x: number;
  y: number;
}

/**
 * A drawn shape as the tools see it (src/domain/shapes.ts `DrawnShape` fits it). The engine
 * only draws and hit-tests shapes; the page owns and stores them.
 */
export interface ToolShape {
  id: string;
  type: string;
  geometry: { x: number; y: number; x1?: number; y1?: number; points?: [number, number][]; width?: number };
  name: string;
}

/**
 * The page's editor commands, as the tools need them. Every change of markers and shapes goes
 * through the host (one editor module: undo, saving, conflicts); a tool never calls a server.
 * Without an editor (visitors) the engine uses a host that does nothing.
 */
export interface ToolHost {
  shapes(): readonly ToolShape[];
  selectedShape(): string | null;
  /**
   * Selects a shape (null: none). `editLabel`: a shape just placed whose name is typed next (a
   * text shape): the page puts the keyboard in its label field, its text selected.
   */
  selectShape(id: string | null, options?: { editLabel?: boolean }): void;
  newShapeId(): string;
  /**
   * The label a new text shape gets until one is typed, in the page's language (e.g. "Текст");
   * the tools know no language. Without it: "Text".
   */
  defaultTextLabel?(): string;
  /** A finished shape (a marker-type shape places a marker instead). */
  addShape(shape: ToolShape): void;
  /** A shape changed by an edit or a move (one undo step per gesture: `commit` ends it). */
  updateShape(shape: ToolShape, commit: boolean): void;
  removeShape(id: string): void;
  /** The marker tool clicked at a map point. */
  placeMarker(mapX: number, mapY: number): void;
  /** A marker dragged in move state was released: save it there. */
  moveMarker(uid: string, mapX: number, mapY: number): void;
  /** Alt-drag of a marker in move state: a copy at the release point. */
  copyMarkerTo(uid: string, mapX: number, mapY: number): void;
  undo(): void;
  redo(): void;
}

/** What a tool may do to the map. The engine implements it; tests use a recording fake. */
export interface ToolContext {
  /** Moves the map by a screen delta (the map follows the pointer). */
  panBy(screenDx: number, screenDy: number): void;
  /** Zooms by a factor around a screen point. */
  zoomAt(factor: number, screenX: number, screenY: number): void;
  /** False while the pointer is over a popup (spec §4). */
  isZoomEnabled(): boolean;
  /** CSS pixels per map pixel. */
  zoom(): number;
  toMap(screenX: number, screenY: number): MapPoint;
  toScreen(mapX: number, mapY: number): MapPoint;
  /** Uid of the drawn marker under a screen point, or null. */
  hitTest(screenX: number, screenY: number): string | null;
  /** Id of the drawn shape under a screen point (topmost), or null. */
  hitShape(screenX: number, screenY: number): string | null;
  /** The selected shape's handle under a screen point, or null. */
  hitHandle(screenX: number, screenY: number): EditHandle | null;
  /** A marker's map position (as drawn now), or null when it is not on the map. */
  markerPosition(uid: string): MapPoint | null;
  /** Marker under the pointer for hover label and cursor (null: none). */
  setHover(uid: string | null): void;
  setCursor(cursor: string): void;
  /** The shape being drawn or dragged, drawn above the others (null: none). */
  setPreview(shape: ToolShape | null): void;
  /** Shows a marker at another point while it is dragged (nothing is saved). */
  previewMarkerAt(uid: string, mapX: number, mapY: number): void;
  markerClick(uid: string): void;
  mapClick(mapX: number, mapY: number): void;
  levelStep(direction: 1 | -1): void;
  /** The page's editor commands. */
  readonly host: ToolHost;
}

/** A host for pages without an editor: every command does nothing. */
export const NO_EDITOR: ToolHost = {
  shapes: () => [],
  selectedShape: () => null,
  selectShape: () => undefined,
  newShapeId: () => '',
  addShape: () => undefined,
  updateShape: () => undefined,
  removeShape: () => undefined,
  placeMarker: () => undefined,
  moveMarker: () => undefined,
  copyMarkerTo: () => undefined,
  undo: () => undefined,
  redo: () => undefined,
};

/** The interaction machinery the engine hosts; concrete tools live in src/tools/. */
export type { EditHandle, MapPoint, Modifiers, PointerInfo, ToolContext, ToolEvent, ToolEventOf, ToolEventType, ToolHost, ToolShape } from './events';
export { NO_EDITOR } from './events';
export { HANDLER_NAMES, StateNode } from './state-node';
export { DEFAULT_TOOL, RootState, type ToolFactory } from './root-state';

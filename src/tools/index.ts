export type { ToolContext, ToolEvent, ToolEventOf, ToolEventType, PointerInfo, Modifiers } from './events';
export { StateNode, HANDLER_NAMES } from './state-node';
export { PanTool } from './pan-tool';
export { ToolManager, DEFAULT_TOOL, type ToolFactory } from './tool-manager';

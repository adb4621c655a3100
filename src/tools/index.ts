/**
 * The concrete interaction tools. The engine hosts the state tree (src/engine/interaction);
 * the page hands it these factories: `pan` for everyone, and the admin tools for admins.
 */
import type { ToolFactory } from '../engine/interaction';
import { DrawTool } from './draw-tool';
import { EditTool } from './edit-tool';
import { MoveTool } from './move-tool';
import { PanTool } from './pan-tool';

export { DrawTool, EditTool, MoveTool, PanTool };

export const panTool: ToolFactory = (ctx) => new PanTool(ctx);

/** The admin tools (spec §4, §6): draw, edit and move. */
export const ADMIN_TOOLS: readonly ToolFactory[] = [(ctx) => new DrawTool(ctx), (ctx) => new EditTool(ctx), (ctx) => new MoveTool(ctx)];

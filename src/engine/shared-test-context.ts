/**
 * Installs the one-context adapter (kernels/test-context.ts explains why): PixiJS's canvases
 * come from its DOM adapter, so the adapter hands out wrapped canvases.
 */
import { BrowserAdapter, DOMAdapter } from 'pixi.js';
import { wrapCanvas } from './kernels/test-context';

let installed = false;

/** Installs the adapter once (idempotent), before the first renderer starts. */
export function shareTestContext(): void {
  if (installed) return;
  installed = true;
  DOMAdapter.set({ ...BrowserAdapter, createCanvas: (width?: number, height?: number) => wrapCanvas(BrowserAdapter.createCanvas(width, height)) });
}

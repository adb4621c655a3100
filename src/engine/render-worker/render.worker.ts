/**
 * The render worker's entry: PixiJS with a worker's DOM adapter (OffscreenCanvas for its
 * canvases, one WebGL context as on the main thread) and the scene host.
 */
/// <reference lib="webworker" />
import { CanvasTextMetrics, DOMAdapter, type Adapter } from 'pixi.js';
// PixiJS's code generation without `new Function` (the page's CSP has no 'unsafe-eval').
import 'pixi.js/unsafe-eval';
import { splitGraphemes } from '../kernels/graphemes';
import { wrapCanvas } from '../kernels/test-context';
import type { FromRenderWorker, ToRenderWorker } from './protocol';
import { RenderSceneHost } from './scene-host';

const scope = self as unknown as DedicatedWorkerGlobalScope;

/**
 * PixiJS's own worker adapter brings an XML parser for bitmap-font files, which the map never
 * loads: this one is the same without it.
 */
const workerAdapter: Adapter = {
  createCanvas: (width?: number, height?: number) => wrapCanvas(new OffscreenCanvas(width ?? 0, height ?? 0)) as unknown as HTMLCanvasElement,
  createImage: () => {
    throw new Error('no images in the render worker (tiles and icons arrive as bitmaps)');
  },
  getCanvasRenderingContext2D: () => OffscreenCanvasRenderingContext2D as unknown as ReturnType<Adapter['getCanvasRenderingContext2D']>,
  getWebGLRenderingContext: () => WebGLRenderingContext,
  getNavigator: () => navigator as unknown as ReturnType<Adapter['getNavigator']>,
  getBaseUrl: () => scope.location.href,
  getFontFaceSet: () => (scope as unknown as { fonts?: FontFaceSet }).fonts ?? null,
  fetch: (url: RequestInfo, options?: RequestInit) => fetch(url, options),
  parseXML: () => {
    throw new Error('no XML in the render worker');
  },
};
DOMAdapter.set(workerAdapter);
CanvasTextMetrics.graphemeSegmenter = splitGraphemes;

const host = new RenderSceneHost((message: FromRenderWorker) => scope.postMessage(message));
host.mark('script');
scope.onmessage = (event: MessageEvent<ToRenderWorker>) => host.receive(event.data);

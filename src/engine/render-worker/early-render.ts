/**
 * The render worker, started with the page (issue 11): on a map's address the page's first
 * script makes the map's canvas, hands its control to a new render worker and tells it the map,
 * the tile manifest and the window's size, before React's first render. The worker then loads
 * PixiJS, starts WebGL and fetches the first view's tiles while the page renders; the engine
 * takes the worker and the canvas when it starts (worker-engine.ts). Messages that came before
 * are kept for it. No PixiJS here: this module is part of the page's first script.
 */
import type { MapDefinition } from '../../domain/maps';
import type { TileManifest } from '../../domain/tiles';
import type { FromRenderWorker, RenderStart } from './protocol';
import type { RenderPort } from './worker-scene';

export interface RenderSetup {
  map: MapDefinition;
  manifest: TileManifest;
  /** Prefix of tile URLs as the page uses it ('' for the page's origin). */
  tileBase: string;
  tileBudgetBytes?: number;
  iconAtlasUrl?: string;
  labelScale?: number;
  transparent?: boolean;
  width: number;
  height: number;
  dpr: number;
}

/** A render worker at work on a map's canvas, not yet taken by an engine. */
export class StartedRender {
  /** What the worker said before an engine listened. */
  readonly backlog: FromRenderWorker[] = [];
  private taken = false;

  constructor(
    readonly mapId: string,
    readonly port: RenderPort,
    readonly canvas: HTMLCanvasElement,
    readonly size: { width: number; height: number; dpr: number },
  ) {
    port.onmessage = (event) => this.backlog.push(event.data);
    // A worker whose script fails to load says so once, perhaps before any engine listens.
    port.onerror = (event) => {
      event.preventDefault?.();
      this.backlog.push({ type: 'error', message: `the render worker failed: ${event.message || 'its script did not load'}` });
    };
  }

  /** The engine takes the worker (once): from now on it listens. */
  take(): { port: RenderPort; canvas: HTMLCanvasElement; backlog: FromRenderWorker[] } {
    if (this.taken) throw new Error('the early render worker was taken already');
    this.taken = true;
    this.port.onmessage = null;
    this.port.onerror = null;
    return { port: this.port, canvas: this.canvas, backlog: this.backlog.splice(0) };
  }

  /** Stops a worker no engine took (another map opened, the page left). */
  dispose(): void {
    if (this.taken) return;
    this.taken = true;
    this.port.onmessage = null;
    this.port.terminate();
  }
}

/** Where the page remembers that a render worker failed in this tab (the next map draws on the main thread). */
export const RENDER_FAILED_KEY = 'raidmap.render-failed';

/** A render worker failed in this page (kept where sessionStorage is blocked too). */
let failedInThisPage = false;

/** Remembers for this tab that a render worker could not draw. */
export function rememberRenderWorkerFailed(): void {
  failedInThisPage = true;
  try {
    sessionStorage.setItem(RENDER_FAILED_KEY, '1');
  } catch {
    // storage blocked: the next page of this tab tries the worker again
  }
}

function renderWorkerFailedBefore(): boolean {
  if (failedInThisPage) return true;
  try {
    return sessionStorage.getItem(RENDER_FAILED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Whether this browser can draw a map in a worker (the transfer of a canvas's control), and no
 * render worker failed in this tab before.
 */
export function renderWorkerSupported(): boolean {
  return (
    !renderWorkerFailedBefore() &&
    typeof Worker === 'function' &&
    typeof OffscreenCanvas === 'function' &&
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function'
  );
}

function newRenderWorker(): RenderPort {
  return new Worker(new URL('./render.worker.ts', import.meta.url), { type: 'module', name: 'raidmap-render' }) as unknown as RenderPort;
}

/** Absolute form of a URL prefix ('' is the page's origin): the worker resolves against its own URL. */
export function absoluteBase(base: string): string {
  return base === '' ? location.origin : new URL(base, document.baseURI).href.replace(/\/$/, '');
}

/**
 * Makes the map's canvas (sized for the window, not yet in the page), transfers its control to a
 * new render worker and starts it on the map. Throws where the browser cannot.
 */
export function startRender(setup: RenderSetup, port: () => RenderPort = newRenderWorker): StartedRender {
  const { width, height, dpr } = setup;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.style.display = 'block';
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  // The page's map container names the map in the reader's language (MapCanvas.tsx, role
  // application); the canvas itself has nothing to read, so an English label here only repeated it.
  canvas.setAttribute('aria-hidden', 'true');
  const offscreen = canvas.transferControlToOffscreen();
  const worker = port();
  const start: RenderStart = {
    type: 'start',
    canvas: offscreen,
    map: setup.map,
    manifest: setup.manifest,
    tileBase: absoluteBase(setup.tileBase),
    tileBudgetBytes: setup.tileBudgetBytes,
    iconAtlasUrl: setup.iconAtlasUrl ? new URL(setup.iconAtlasUrl, document.baseURI).href : undefined,
    labelScale: setup.labelScale,
    transparent: setup.transparent === true,
    width,
    height,
    dpr,
  };
  worker.postMessage(start, [offscreen]);
  return new StartedRender(setup.map.id, worker, canvas, { width, height, dpr });
}

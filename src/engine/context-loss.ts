/**
 * A WebGL context that the browser takes away (a GPU reset, a driver update, too many contexts
 * in the browser, a laptop waking from sleep) and, usually, gives back. PixiJS keeps its objects
 * and re-creates their GPU side when the context comes back (its GlContextSystem asks for the
 * restore and re-uploads textures and buffers from what they were made of); what it cannot know
 * is that this map draws on demand, so nothing would draw the restored context until the next
 * input. This watch tells the scene when to hold its frames, when to draw everything again, and
 * when to give up: a context not back within `timeoutMs` is gone, and the map says so (its error
 * and "Try again", which makes a new context). No PixiJS: the canvas is any event target (the
 * page's canvas or the render worker's `OffscreenCanvas`).
 */

/** How long a lost context has to come back before the map gives up on it (ms). */
export const CONTEXT_RESTORE_TIMEOUT_MS = 5000;

export interface ContextLossHandlers {
  /** The context is lost: hold the frames (drawing now would draw nothing). */
  lost(): void;
  /** It is back: draw everything again. */
  restored(): void;
  /** It did not come back in time: why, for the map's error. */
  gone(message: string): void;
}

export interface ContextLossOptions {
  timeoutMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** Listens on `canvas` for the context's loss and restore; returns the unsubscribe. */
export function watchContextLoss(canvas: EventTarget, handlers: ContextLossHandlers, options: ContextLossOptions = {}): () => void {
  const timeoutMs = options.timeoutMs ?? CONTEXT_RESTORE_TIMEOUT_MS;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let timer: unknown = null;
  let gone = false;
  const stopTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };
  const onLost = (event: Event) => {
    // Without this the browser never gives the context back (PixiJS asks for it too).
    event.preventDefault();
    if (gone || timer !== null) return;
    handlers.lost();
    timer = setTimer(() => {
      timer = null;
      gone = true;
      handlers.gone(`the map's graphics context was lost and did not come back within ${Math.round(timeoutMs / 1000)} s (a GPU reset or a driver update?)`);
    }, timeoutMs);
  };
  const onRestored = () => {
    if (gone) return;
    stopTimer();
    handlers.restored();
  };
  canvas.addEventListener('webglcontextlost', onLost);
  canvas.addEventListener('webglcontextrestored', onRestored);
  return () => {
    stopTimer();
    canvas.removeEventListener('webglcontextlost', onLost);
    canvas.removeEventListener('webglcontextrestored', onRestored);
  };
}

/** How long afterNextFrame waits for an animation frame before it runs its task anyway (ms). */
export const FRAME_WAIT_MS = 100;

/**
 * Runs `task` once the browser has drawn its next frame (an animation frame, then a task after
 * that frame's rendering), for work that must not hold back the frame that shows something new
 * (useAfterMapDrawn). Returns a function that cancels it. A hidden tab gets no animation frames:
 * there the task runs after FRAME_WAIT_MS.
 */
export function afterNextFrame(task: () => void): () => void {
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = null;
    timer = null;
  };
  const afterFrame = () => {
    cancel();
    timer = setTimeout(() => {
      timer = null;
      task();
    }, 0);
  };
  if (typeof requestAnimationFrame !== 'function') {
    afterFrame();
    return cancel;
  }
  frame = requestAnimationFrame(afterFrame);
  timer = setTimeout(afterFrame, FRAME_WAIT_MS);
  return cancel;
}

/** Runs `task` when the page is idle (within a second at the latest), or soon where there is no idle callback. */
export function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 1000 });
  else setTimeout(task, 50);
}

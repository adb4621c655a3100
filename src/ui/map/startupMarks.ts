/**
 * User Timing marks of a map page's first view (`raidmap:<step>`), in the order they usually
 * come: the engine's chunk loaded and evaluated (`engine-loaded`, from the page's early load,
 * whatever React is doing), the map page's first commit (`page-mounted`: React has rendered the
 * page), the engine's chunk taken by the mounted canvas (`engine-module`), the renderer started,
 * the marker list parsed (in the worker), the markers drawn, the map ready. Each is marked once
 * per page load, so a map switch does not move them. They show in DevTools' performance panel
 * and in the benchmark's traces, and tell which of the parallel paths a first view waited for
 * (docs/PERFORMANCE.md).
 */
export type StartupStep = 'engine-loaded' | 'page-mounted' | 'engine-module' | 'engine-started' | 'markers-parsed' | 'markers-drawn' | 'ready';

const marked = new Set<StartupStep>();

export function markStartup(step: StartupStep): void {
  if (marked.has(step)) return;
  marked.add(step);
  globalThis.performance?.mark?.(`raidmap:${step}`);
}

/** Forgets the marks made (tests). */
export function resetStartupMarks(): void {
  marked.clear();
}

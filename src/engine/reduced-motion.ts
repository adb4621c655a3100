/**
 * The page's prefers-reduced-motion (docs/DECISIONS.md "The where-am-I ping and reduced motion"):
 * with `reduce`, the engine draws no animation that only decorates (the where-am-I ping's growing
 * ring). Read on the page's thread, where the engine's API runs (map-engine.ts) in both ways of
 * drawing: a render worker has no matchMedia, and is told only whether to ping.
 */

export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether the page asks for reduced motion now; false where it cannot tell (no matchMedia). */
export function prefersReducedMotion(env: { matchMedia?: (query: string) => { matches: boolean } } = globalThis): boolean {
  if (typeof env.matchMedia !== 'function') return false;
  try {
    return env.matchMedia(REDUCED_MOTION_QUERY).matches;
  } catch {
    return false;
  }
}

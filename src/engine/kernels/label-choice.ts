/**
 * Which markers get a label (before the declutter), by the label mode (domain/settings.ts):
 * - the hovered and the selected marker, always;
 * - `all`: every drawn marker;
 * - `auto`: the markers labelled always (extractions) that are drawn at full strength: an
 *   extraction of another level (drawn faint) is named only when hovered or selected. Its faint
 *   text lay over the level's own icons and names, unreadable, and on a zoomed-out map it was
 *   most of the clutter;
 * - `hover`: no other.
 */
import type { LabelMode } from '../../domain/settings';

/**
 * `alphaOf(index)` is read only where it decides (an always-labelled marker in auto mode): this
 * runs per drawn marker, so nothing is made per call either.
 */
export function wantsLabel(mode: LabelMode, special: boolean, alwaysLabel: boolean, alphaOf: (index: number) => number, index: number): boolean {
  if (special) return true;
  if (mode === 'all') return true;
  if (mode === 'hover') return false;
  return alwaysLabel && alphaOf(index) >= 1;
}

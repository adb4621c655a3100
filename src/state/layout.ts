/**
 * The page's layout: whether the side panels are shown (the top bar's Show / Hide panels),
 * and which shared popups are open: the pro upsell (any pro feature a visitor tries), the
 * account dialog (sign in / create account) and the settings popup; and whether the admin's
 * point tools are shown. Panels hidden on a wide window stay hidden through a reload of the tab
 * (per tab, as the map view is); a phone-sized window (upright or on its side) always starts with them hidden.
 */
import { proxy } from 'valtio';
import { readTabStored, writeTabStored } from './storage';

export type AccountDialog = 'signIn' | 'signUp';

export interface LayoutState {
  /** Both side panels (categories left, levels / quests / settings right). */
  panelsShown: boolean;
  /** The pro-upsell popup. Opening it changes nothing else. */
  upsellOpen: boolean;
  /** The account dialog, on its sign-in or sign-up form, or closed. */
  accountDialog: AccountDialog | null;
  /** The settings popup (pro). */
  settingsOpen: boolean;
  /** The admin's point-history buttons (spec §2), toggled by Alt-click on the top bar. */
  pointTools: boolean;
}

/**
 * A phone-sized window, upright or on its side (the top bar's compact Menu follows the same sizes,
 * topbar.css): the side panels start hidden there, so the map is what one sees first. On its side
 * (844 × 390) both panels and an admin's dock left a strip of map 40 px wide.
 */
export const NARROW_QUERY = '(max-width: 600px), (max-height: 500px)';

/** Whether the window is phone-sized now (the panels are sheets over the map there). */
export function isNarrowWindow(): boolean {
  return typeof globalThis.matchMedia === 'function' && globalThis.matchMedia(NARROW_QUERY).matches;
}

/** The tab's storage key: 'hidden' while the user has hidden the panels on a wide window. */
export const PANELS_HIDDEN_KEY = 'map:panels';

/** Shown on a wide window unless this tab hid them; hidden on a phone (sheets over the map). */
function startPanelsShown(): boolean {
  return !isNarrowWindow() && readTabStored(PANELS_HIDDEN_KEY) !== 'hidden';
}

export const layout = proxy<LayoutState>({ panelsShown: startPanelsShown(), upsellOpen: false, accountDialog: null, settingsOpen: false, pointTools: false });

/**
 * Shows or hides the side panels. On a wide window the choice is kept for the tab; a phone's
 * sheets (opened and closed as the user goes) are not.
 */
export function setPanelsShown(shown: boolean): void {
  layout.panelsShown = shown;
  if (!isNarrowWindow()) writeTabStored(PANELS_HIDDEN_KEY, shown ? null : 'hidden');
}

export function togglePanels(): void {
  setPanelsShown(!layout.panelsShown);
}

export function openUpsell(): void {
  layout.upsellOpen = true;
}

export function closeUpsell(): void {
  layout.upsellOpen = false;
}

export function openAccountDialog(form: AccountDialog = 'signIn'): void {
  layout.upsellOpen = false;
  layout.accountDialog = form;
}

export function closeAccountDialog(): void {
  layout.accountDialog = null;
}

export function openSettings(): void {
  layout.settingsOpen = true;
}

export function closeSettings(): void {
  layout.settingsOpen = false;
}

/** Shows or hides the admin's point-history buttons (Alt-click on the top bar). */
export function togglePointTools(): void {
  layout.pointTools = !layout.pointTools;
}

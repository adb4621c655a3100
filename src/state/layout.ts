/** The map page's layout: whether the side panels are shown (the top bar's Show / Hide panels). */
import { proxy } from 'valtio';

export interface LayoutState {
  /** Both side panels (categories left, levels / quests / settings right). */
  panelsShown: boolean;
}

export const layout = proxy<LayoutState>({ panelsShown: true });

export function setPanelsShown(shown: boolean): void {
  layout.panelsShown = shown;
}

export function togglePanels(): void {
  layout.panelsShown = !layout.panelsShown;
}

/** The map page's layout: whether the side panels show (top bar "Show panels / Hide panels"). */
import { proxy } from 'valtio';

export interface LayoutState {
  panelsVisible: boolean;
}

export const layout = proxy<LayoutState>({ panelsVisible: true });

export function setPanelsVisible(visible: boolean): void {
  layout.panelsVisible = visible;
}

export function togglePanels(): void {
  layout.panelsVisible = !layout.panelsVisible;
}

/**
 * The admin's overlays on the map page, stacked at the bottom between the side panels (or
 * across the page when the panels are hidden): the point tools (when toggled on), the tools
 * panel and the status bar. Renders nothing unless the user may use the admin tools.
 *
 * Props: `map` (the open map: id, name and size for the points, transform for game coordinates) and
 * `camera`, the engine's camera (x, y: map pixel at the canvas centre; zoom) or null.
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { MapDefinition } from '../../domain/maps';
import { layout } from '../../state/layout';
import { PointTools } from './PointTools';
import { StatusBar, type StatusCamera } from './StatusBar';
import { ToolsPanel } from './ToolsPanel';
import { useAdminTools } from './useAdmin';
import './admin.css';

export interface AdminDockProps {
  map: Pick<MapDefinition, 'id' | 'name' | 'size' | 'transform'>;
  camera: StatusCamera | null;
}

/** The dock's height as `--admin-dock-height` on the page, so the marker popup docks above it. */
function useDockHeight(dock: HTMLElement | null): void {
  useEffect(() => {
    if (!dock) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--admin-dock-height', `${Math.ceil(dock.getBoundingClientRect().height)}px`);
    publish();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(publish) : null;
    observer?.observe(dock);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--admin-dock-height');
    };
  }, [dock]);
}

export function AdminDock({ map, camera }: AdminDockProps) {
  const admin = useAdminTools();
  const { panelsShown } = useSnapshot(layout);
  const [dock, setDock] = useState<HTMLDivElement | null>(null);
  useDockHeight(admin ? dock : null);
  if (!admin) return null;
  return (
    <div ref={setDock} className={`admin-dock${panelsShown ? ' admin-dock--panels' : ''}`}>
      <PointTools map={map} />
      <ToolsPanel />
      <StatusBar map={map} camera={camera} />
    </div>
  );
}

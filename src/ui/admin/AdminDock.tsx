/**
 * The admin's overlays on the map page, stacked at the bottom between the side panels (or
 * across the page when the panels are hidden): the point tools (when toggled on), the notices of
 * changes the server did not take, of conflicts waiting for a choice, of unsaved markers kept
 * from before a reload and of an edit set aside (when there are), the tools panel and the status
 * bar. Renders nothing unless the user may use the admin tools.
 * While a marker's edit form is open the dock is marked `admin-dock--form-open`: on a narrow or
 * short window (a phone, or a page the on-screen keyboard shrank) admin.css then hides all of it
 * but the first notice that needs the admin (`admin-notice--needs-admin`: a failed save, a
 * conflict, unsaved markers), shown as a one-line strip under the form (its published height
 * keeps the form above it), so the form has the room and nothing waiting goes unseen. The rest
 * comes back as it was (tools folded or open) when the form closes.
 *
 * Props: `map` (the open map: id, name and size for the points, transform for game coordinates) and
 * `camera`, the engine's camera (x, y: map pixel at the canvas centre; zoom) or null.
 */
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { MapDefinition } from '../../domain/maps';
import { layout } from '../../state/layout';
import { popup } from '../../state/popup';
import { LeaveGuard } from './LeaveGuard';
import { GoneWhileMovingNotice } from './GoneWhileMovingNotice';
import { PointTools } from './PointTools';
import { SetAsideNotice } from './SetAsideNotice';
import { UnsavedChanges } from './UnsavedChanges';
import { UnsavedMarkersNotice } from './UnsavedMarkersNotice';
import { WaitingConflicts } from './WaitingConflicts';
import { StatusBar, type StatusCamera } from './StatusBar';
import { ToolsPanel } from './ToolsPanel';
import { useAdminTools } from './useAdmin';
import { usePublishedLength } from '../usePublishedLength';
import './admin.css';

export interface AdminDockProps {
  map: Pick<MapDefinition, 'id' | 'name' | 'size' | 'transform'>;
  camera: StatusCamera | null;
}

export function AdminDock({ map, camera }: AdminDockProps) {
  const admin = useAdminTools();
  const { panelsShown } = useSnapshot(layout);
  const { uid, mode } = useSnapshot(popup);
  const formOpen = uid !== null && mode === 'edit';
  const [dock, setDock] = useState<HTMLDivElement | null>(null);
  // The dock's height, so the marker popup docks above it.
  usePublishedLength(admin ? dock : null, '--admin-dock-height', (box) => box.height);
  if (!admin) return null;
  return (
    <div ref={setDock} className={['admin-dock', panelsShown ? 'admin-dock--panels' : '', formOpen ? 'admin-dock--form-open' : ''].filter(Boolean).join(' ')}>
      <LeaveGuard />
      <PointTools map={map} />
      <GoneWhileMovingNotice />
      <UnsavedChanges />
      <WaitingConflicts />
      <UnsavedMarkersNotice />
      <SetAsideNotice />
      <ToolsPanel />
      <StatusBar map={map} camera={camera} />
    </div>
  );
}

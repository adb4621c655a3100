/**
 * The engine's camera for the admin status bar, read a few times a second while `enabled`.
 * The per-frame camera stays out of state (docs/STYLE 7): only this small overlay follows it,
 * and only for admins.
 */
import { useEffect, useState } from 'react';
import type { CameraView } from '../../engine/types';
import type { EngineHandle } from './automation';

const READ_EVERY_MS = 200;

export function useEngineCamera(handle: EngineHandle, enabled: boolean): CameraView | null {
  const [camera, setCamera] = useState<CameraView | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let last: CameraView | null = null;
    const read = () => {
      const view = handle.engine?.camera() ?? null;
      if (view === last || (view && last && view.x === last.x && view.y === last.y && view.zoom === last.zoom)) return;
      last = view ? { x: view.x, y: view.y, zoom: view.zoom } : null;
      setCamera(last);
    };
    read();
    const timer = setInterval(read, READ_EVERY_MS);
    return () => clearInterval(timer);
  }, [handle, enabled]);
  return enabled ? camera : null;
}

/**
 * The map page's polite live region (role="status", out of sight): one place that is in the
 * page before anything is said, so a screen reader reads each message — a status element
 * inserted together with its text is often not read, and the edit form that starts a save is
 * gone (back to view mode) by the time "Saved" is due. `announce` replaces the message; the
 * same text said twice is read twice (a new node each time). Errors are not said here: they
 * are `role="alert"` where they show.
 */
import { useEffect, type CSSProperties } from 'react';
import { proxy, useSnapshot } from 'valtio';

const live = proxy({ message: '', serial: 0 });

export function announce(message: string): void {
  live.message = message;
  live.serial += 1;
}

export function clearAnnouncement(): void {
  live.message = '';
  live.serial += 1;
}

const HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

export function LiveAnnouncer() {
  const { message, serial } = useSnapshot(live);
  // Nothing carried over to the next page (or test).
  useEffect(() => clearAnnouncement, []);
  return (
    <div role="status" className="live-announcer" style={HIDDEN}>
      {message && <span key={serial}>{message}</span>}
    </div>
  );
}

import { afterEach, describe, expect, it } from 'vitest';
import { pilot, resetPilot } from '../../state/pilot';
import { onPilotStaleChange, withPilotStale } from './stalePlayer';

describe('the stale look of the live feed marker', () => {
  afterEach(() => resetPilot());

  it('marks the marker stale while the feed says so, and tells each change once', async () => {
    const marker = { mapX: 1, mapY: 2, arrowAngle: null };
    expect(withPilotStale(marker)).toEqual(marker);
    let redraws = 0;
    const off = onPilotStaleChange(() => redraws++);
    pilot.stale = true;
    await Promise.resolve();
    expect(redraws).toBe(1);
    expect(withPilotStale(marker)).toEqual({ ...marker, stale: true });
    pilot.watchers = 3; // another field: no redraw
    await Promise.resolve();
    expect(redraws).toBe(1);
    off();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { layout, setPanelsShown, togglePanels } from './layout';
import { currentPlayer, player, setPlayerPosition } from './player';
import { isPro, sessionCan, setSessionUser } from './session';

afterEach(() => {
  setSessionUser(null);
  setPanelsShown(true);
  setPlayerPosition(null);
});

describe('session', () => {
  it('is a visitor until someone signs in: not pro, the look arrow an upsell', () => {
    expect(isPro()).toBe(false);
    expect(sessionCan('lookArrow')).toBe(false);
    expect(sessionCan('view')).toBe(true);
  });

  it('knows a pro user, and that an admin is not pro', () => {
    setSessionUser({ pro: true, admin: false, questsDone: [], questsHidden: [] });
    expect(isPro()).toBe(true);
    expect(sessionCan('lookArrow')).toBe(true);
    setSessionUser({ pro: true, admin: true, questsDone: [], questsHidden: [] });
    expect(isPro()).toBe(false);
  });
});

describe('layout', () => {
  it('shows the panels at first and toggles them', () => {
    expect(layout.panelsShown).toBe(true);
    togglePanels();
    expect(layout.panelsShown).toBe(false);
    togglePanels();
    expect(layout.panelsShown).toBe(true);
  });
});

describe('player', () => {
  it('counts every update and hands out copies', () => {
    const before = player.updates;
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    expect(player.updates).toBe(before + 2);
    const copy = currentPlayer();
    expect(copy).toEqual({ x: 1, y: 2, z: 3, look: 45 });
    copy!.x = 99;
    expect(player.position?.x).toBe(1);
    setPlayerPosition(null);
    expect(currentPlayer()).toBeNull();
  });
});

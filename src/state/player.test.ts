import { afterEach, describe, expect, it } from 'vitest';
import { NO_POSITION } from '../domain/position';
import { currentPlayer, player, resetPlayerPosition, setPlayerPosition } from './player';

afterEach(() => setPlayerPosition(null));

describe('player', () => {
  it('marks a set position as located and counts every update', () => {
    const before = player.updates;
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    expect(currentPlayer()).toEqual({ x: 1, y: 2, z: 3, look: 45 });
    expect(player.located).toBe(true);
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    expect(player.updates).toBe(before + 2);
  });

  it('resets to 0, 0, 0 with no look, not located, for a name not recognised', () => {
    setPlayerPosition({ x: 1, y: 2, z: 3, look: 45 });
    const before = player.updates;
    resetPlayerPosition();
    expect(currentPlayer()).toEqual(NO_POSITION);
    expect(player.located).toBe(false);
    expect(player.updates).toBe(before + 1);
    setPlayerPosition({ x: 4, y: 5, z: 6, look: null });
    expect(player.located).toBe(true);
  });

  it('is not located without a position', () => {
    setPlayerPosition({ x: 1, y: 2, z: 3, look: null });
    setPlayerPosition(null);
    expect(currentPlayer()).toBeNull();
    expect(player.located).toBe(false);
  });
});

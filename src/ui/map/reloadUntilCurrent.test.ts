import { describe, expect, it } from 'vitest';
import { reloadUntilCurrent } from './reloadUntilCurrent';

describe('reloadUntilCurrent', () => {
  it('reads once when the list read is the server’s', async () => {
    let reads = 0;
    expect(await reloadUntilCurrent(async () => void reads++, async () => false)).toBe(1);
    expect(reads).toBe(1);
  });

  it('reads again while a change landed during the read, at most `atMost` times', async () => {
    const answers = [true, false];
    expect(await reloadUntilCurrent(async () => undefined, async () => answers.shift() ?? false)).toBe(2);
    expect(await reloadUntilCurrent(async () => undefined, async () => true, { atMost: 3 })).toBe(3);
  });

  it('stops when it cannot tell, the check fails, or the page went away', async () => {
    expect(await reloadUntilCurrent(async () => undefined, async () => null)).toBe(1);
    expect(await reloadUntilCurrent(async () => undefined, () => Promise.reject(new Error('offline')))).toBe(1);
    let gone = false;
    expect(
      await reloadUntilCurrent(
        async () => {
          gone = true;
        },
        async () => true,
        { stopped: () => gone },
      ),
    ).toBe(1);
  });

  it('lets a failed read throw', async () => {
    await expect(reloadUntilCurrent(() => Promise.reject(new Error('no list')), async () => true)).rejects.toThrow('no list');
  });
});

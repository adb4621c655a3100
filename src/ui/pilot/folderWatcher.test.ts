import { describe, expect, it, vi } from 'vitest';
import { pickFolder, watchFolder, type DirectoryHandle } from './folderWatcher';

/** A folder whose listing fails while `failing.now` holds an error. */
function folder(names: string[], failing: { now: unknown }): DirectoryHandle {
  return {
    kind: 'directory',
    name: 'Screenshots',
    values: async function* () {
      if (failing.now !== null) throw failing.now;
      for (const name of names) yield { kind: 'file' as const, name };
    },
  };
}

describe('watchFolder', () => {
  it('a first listing that fails rejects with the browser\'s error (the watch never started), and onError is not called', async () => {
    const gone = new DOMException('A requested file or directory could not be found.', 'NotFoundError');
    const onError = vi.fn();
    await expect(watchFolder(folder([], { now: gone }), { onFiles: () => {}, onError, scope: {} })).rejects.toBe(gone);
    expect(onError).not.toHaveBeenCalled();
  });

  it('a folder lost once watched goes to onError and stops', async () => {
    vi.useFakeTimers();
    try {
      const failing = { now: null as unknown };
      const onError = vi.fn();
      const onFiles = vi.fn();
      const watch = await watchFolder(folder(['old.png'], failing), { onFiles, onError, pollMs: 100, scope: {} });
      expect(watch.mode).toBe('poll');
      const denied = new DOMException('Permission taken back.', 'NotAllowedError');
      failing.now = denied;
      await vi.advanceTimersByTimeAsync(100);
      expect(onError).toHaveBeenCalledExactlyOnceWith(denied);
      await vi.advanceTimersByTimeAsync(500);
      expect(onError).toHaveBeenCalledTimes(1);
      expect(onFiles).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('pickFolder', () => {
  it('a closed picker is null; any other refusal is thrown as the browser threw it', async () => {
    const abort = new DOMException('The user aborted a request.', 'AbortError');
    expect(await pickFolder({ showDirectoryPicker: () => Promise.reject(abort) })).toBeNull();
    const security = new DOMException('Cross origin sub frames aren\'t allowed to show a file picker.', 'SecurityError');
    await expect(pickFolder({ showDirectoryPicker: () => Promise.reject(security) })).rejects.toBe(security);
  });
});

/** The folder watch's notices follow an EN↔RU switch made while they show. */
import '../../i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { memoryStorage, setStorageBackend } from '../../state/storage';
import type { DirectoryHandle, WatchOptions } from './folderWatcher';
import { FolderWatchPanel } from './FolderWatchPanel';

// The browser's folder API is not in jsdom: the panel's picker and watch are stood in for here.
const folder = vi.hoisted(() => ({
  pick: vi.fn<() => Promise<DirectoryHandle | null>>(),
  options: null as WatchOptions | null,
}));
vi.mock('./folderWatcher', () => ({
  folderAccessSupported: () => true,
  pickFolder: () => folder.pick(),
  watchFolder: async (_dir: DirectoryHandle, options: WatchOptions) => {
    folder.options = options;
    return { mode: 'poll', stop: () => {} };
  },
}));

const screenshots: DirectoryHandle = { kind: 'directory', name: 'Screenshots', values: async function* () {} };

beforeEach(() => {
  setStorageBackend(memoryStorage());
  folder.pick.mockReset();
  folder.options = null;
});
afterEach(async () => {
  await setLanguage('en');
  setStorageBackend(null);
});

describe('the folder watch\'s notices', () => {
  it('a folder that could not be watched: said again in the language switched to, with the error\'s own words', async () => {
    folder.pick.mockRejectedValue(new Error('NotAllowedError: permission denied'));
    render(<FolderWatchPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose the screenshots folder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The folder could not be watched: NotAllowedError: permission denied');
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Не удалось следить за папкой: NotAllowedError: permission denied'));
    expect(screen.getByRole('alert')).not.toHaveTextContent(/could not be watched/);
  });

  it('a folder that can no longer be read: said again in the language switched to', async () => {
    folder.pick.mockResolvedValue(screenshots);
    render(<FolderWatchPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose the screenshots folder' }));
    await screen.findByText('Watching “Screenshots”: looked at twice a second.');
    act(() => folder.options!.onError?.(new Error('gone')));
    expect(await screen.findByRole('alert')).toHaveTextContent('The folder cannot be read any more (moved, or permission taken back). Choose it again.');
    await act(async () => setLanguage('ru'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Папку больше нельзя прочитать (перемещена или доступ отозван). Выберите её снова.'));
  });
});

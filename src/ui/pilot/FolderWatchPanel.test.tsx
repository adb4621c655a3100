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
  /** What the first listing throws (null: it works). */
  startError: null as unknown,
}));
vi.mock('./folderWatcher', () => ({
  folderAccessSupported: () => true,
  pickFolder: () => folder.pick(),
  watchFolder: async (_dir: DirectoryHandle, options: WatchOptions) => {
    folder.options = options;
    if (folder.startError !== null) throw folder.startError;
    return { mode: 'poll', stop: () => {} };
  },
}));

const screenshots: DirectoryHandle = { kind: 'directory', name: 'Screenshots', values: async function* () {} };

beforeEach(() => {
  setStorageBackend(memoryStorage());
  folder.pick.mockReset();
  folder.options = null;
  folder.startError = null;
});
afterEach(async () => {
  await setLanguage('en');
  setStorageBackend(null);
});

describe('the folder watch\'s notices', () => {
  it('an unexpected error: said again in the language switched to, with the browser\'s own words only as a detail', async () => {
    folder.pick.mockRejectedValue(new TypeError('Failed to execute showDirectoryPicker'));
    render(<FolderWatchPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose the screenshots folder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The folder could not be watched: the browser reported an unexpected error. Choose it again, or run the watcher on your PC. The browser’s message: TypeError: Failed to execute showDirectoryPicker',
    );
    await act(async () => setLanguage('ru'));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Не удалось следить за папкой: браузер сообщил о непредвиденной ошибке. Выберите папку снова или запустите наблюдатель на ПК. Сообщение браузера: TypeError: Failed to execute showDirectoryPicker',
      ),
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent(/could not be watched/);
  });

  it.each([
    ['NotAllowedError', 'Не удалось следить за папкой: браузеру не разрешили её читать. Выберите папку снова и разрешите доступ, когда браузер спросит.'],
    ['NotFoundError', 'Не удалось следить за папкой: её больше нет на прежнем месте (перемещена или удалена). Выберите её снова.'],
    ['SecurityError', 'Не удалось следить за папкой: браузер не даёт этой странице открывать здесь папки.'],
  ])('a %s from the picker is said in Russian, without the browser\'s English', async (name, said) => {
    await setLanguage('ru');
    folder.pick.mockRejectedValue(new DOMException('The request is not allowed by the user agent or the platform in the current context.', name));
    render(<FolderWatchPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Выбрать папку скриншотов' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(said);
    expect(alert).not.toHaveTextContent(/request|allowed|Error/);
  });

  it('the picker closed without choosing (AbortError) says nothing', async () => {
    folder.pick.mockRejectedValue(new DOMException('The user aborted a request.', 'AbortError'));
    render(<FolderWatchPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose the screenshots folder' }));
    await waitFor(() => expect(folder.pick).toHaveBeenCalled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose the screenshots folder' })).toBeInTheDocument();
  });

  it('a folder that cannot be listed at the start: said as a failed start, not as watching', async () => {
    folder.pick.mockResolvedValue(screenshots);
    folder.startError = new DOMException('A requested file or directory could not be found at the time an operation was processed.', 'NotFoundError');
    render(<FolderWatchPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Choose the screenshots folder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The folder could not be watched: it is not there any more (moved or deleted). Choose it again.');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose the screenshots folder' })).toBeInTheDocument();
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

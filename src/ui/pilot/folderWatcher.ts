/**
 * Watching the game's screenshot folder from the browser (/pilot), with the File System Access
 * API (Chrome, Edge, Opera on a desktop; not Firefox or Safari): the visitor picks the folder
 * once, the page lists it again on each change the browser reports (`FileSystemObserver`,
 * where there is one) or every 500 ms, and hands over the names of the new files, oldest
 * first (folderDiff.ts). Nothing is read but the names and modification times.
 */
import { diffFolder, inSendOrder, type FolderFile } from './folderDiff';

/** The few members of a FileSystemDirectoryHandle used here (the DOM types lack the iterators). */
export interface DirectoryHandle {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<EntryHandle>;
}

interface EntryHandle {
  readonly kind: 'file' | 'directory';
  readonly name: string;
  getFile?(): Promise<File>;
}

interface ObserverInstance {
  observe(handle: DirectoryHandle): Promise<void>;
  disconnect(): void;
}

type ObserverConstructor = new (callback: (records: unknown[]) => void) => ObserverInstance;

interface FolderApi {
  showDirectoryPicker?: (options?: { id?: string; mode?: 'read' | 'readwrite'; startIn?: string }) => Promise<DirectoryHandle>;
  FileSystemObserver?: ObserverConstructor;
}

/** How often the folder is listed when the browser cannot report changes. */
export const POLL_MS = 500;

const api = (scope: unknown): FolderApi => (scope ?? {}) as FolderApi;

/** Whether this browser can let the page watch a folder (showDirectoryPicker). */
export function folderAccessSupported(scope: unknown = globalThis): boolean {
  return typeof api(scope).showDirectoryPicker === 'function';
}

/** Asks the visitor for the folder; null when they closed the picker without choosing. */
export async function pickFolder(scope: unknown = globalThis): Promise<DirectoryHandle | null> {
  const picker = api(scope).showDirectoryPicker;
  if (typeof picker !== 'function') throw new Error('The File System Access API is not available');
  try {
    return await picker.call(scope, { id: 'raidmap-screenshots', mode: 'read', startIn: 'pictures' });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') return null;
    throw error;
  }
}

export interface FolderWatch {
  /** 'observer' when the browser reports changes, 'poll' when the folder is listed every POLL_MS. */
  readonly mode: 'observer' | 'poll';
  stop(): void;
}

export interface WatchOptions {
  /** The new files' names, oldest first; the next look waits until the promise settles. */
  onFiles: (names: string[]) => void | Promise<void>;
  /** The folder could not be read any more (removed, permission taken back): watching stops. */
  onError?: (error: unknown) => void;
  pollMs?: number;
  scope?: unknown;
}

async function listFiles(dir: DirectoryHandle): Promise<Map<string, EntryHandle>> {
  const files = new Map<string, EntryHandle>();
  for await (const entry of dir.values()) if (entry.kind === 'file') files.set(entry.name, entry);
  return files;
}

async function fileOf(name: string, entry: EntryHandle | undefined): Promise<FolderFile> {
  try {
    const file = await entry?.getFile?.();
    return file ? { name, lastModified: file.lastModified } : { name };
  } catch {
    // Being written or already gone: the name still orders it.
    return { name };
  }
}

/**
 * Watches `dir`: the files already there are taken as seen (never sent); each later file's name
 * goes to `onFiles`. Resolves once the first listing is done and the watch is set up; rejects
 * with the browser's error when that first listing fails (the watch never started: `onError`
 * is for a folder lost later, and the page would otherwise say both "watching" and "lost").
 */
export async function watchFolder(dir: DirectoryHandle, { onFiles, onError, pollMs = POLL_MS, scope = globalThis }: WatchOptions): Promise<FolderWatch> {
  let seen: Set<string> | null = null;
  let stopped = false;
  let running = false;
  let again = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  let observer: ObserverInstance | null = null;
  /** The first listing's failure, thrown to the caller rather than reported. */
  let failedToStart: { error: unknown } | null = null;

  const stop = () => {
    stopped = true;
    if (timer !== null) clearInterval(timer);
    timer = null;
    observer?.disconnect();
    observer = null;
  };

  const look = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const files = await listFiles(dir);
      if (stopped) return;
      const { added, seen: next } = diffFolder(seen, [...files.keys()]);
      seen = next;
      if (added.length > 0) {
        const ordered = inSendOrder(await Promise.all(added.map((name) => fileOf(name, files.get(name)))));
        if (!stopped) await onFiles(ordered.map((file) => file.name));
      }
    } catch (error) {
      if (!stopped) {
        stop();
        if (seen === null) failedToStart = { error };
        else onError?.(error);
      }
    } finally {
      running = false;
    }
    if (again && !stopped) {
      again = false;
      await look();
    }
  };

  await look();
  // Set inside look(): TypeScript cannot see that it may no longer be null here.
  const failed = failedToStart as { error: unknown } | null;
  if (failed) throw failed.error;
  if (stopped) return { mode: 'poll', stop };

  const Observer = api(scope).FileSystemObserver;
  if (typeof Observer === 'function') {
    try {
      const made = new Observer(() => void look());
      await made.observe(dir);
      observer = made;
      return { mode: 'observer', stop };
    } catch {
      // An observer that cannot watch this folder: list it on a timer instead.
    }
  }
  timer = setInterval(() => void look(), pollMs);
  return { mode: 'poll', stop };
}

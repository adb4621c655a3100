/**
 * localStorage (and, for what is kept per tab, sessionStorage) that never throws (private mode,
 * quota, no DOM): reads give null, writes are dropped.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function browserSessionStorage(): KeyValueStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

let override: KeyValueStorage | null = null;

/**
 * Replaces the storage (tests, embedders): both the local and the per-tab one (their keys do not
 * overlap). Pass null to go back to localStorage and sessionStorage.
 */
export function setStorageBackend(storage: KeyValueStorage | null): void {
  override = storage;
}

export function readStored(key: string): string | null {
  try {
    return (override ?? browserStorage())?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    const storage = override ?? browserStorage();
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage full or blocked: the setting lasts for this page only.
  }
}

/** Per tab (sessionStorage): kept through a reload of the tab, not shared with other tabs. */
export function readTabStored(key: string): string | null {
  try {
    return (override ?? browserSessionStorage())?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeTabStored(key: string, value: string | null): void {
  try {
    const storage = override ?? browserSessionStorage();
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage full or blocked: the view is not kept for a reload.
  }
}

export function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, String(value)),
    removeItem: (key) => void data.delete(key),
  };
}

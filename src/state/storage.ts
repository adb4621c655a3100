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

/** Reads `key` from `storage` (the test override wins); blocked or missing storage reads as nothing. */
function readFrom(storage: () => KeyValueStorage | null | undefined, key: string): string | null {
  try {
    return (override ?? storage())?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Writes (or, for null, removes) `key`; a full or blocked storage keeps it for this page only. */
function writeTo(storage: () => KeyValueStorage | null | undefined, key: string, value: string | null): void {
  try {
    const target = override ?? storage();
    if (value === null) target?.removeItem(key);
    else target?.setItem(key, value);
  } catch {
    // Storage full or blocked: the value lasts for this page only.
  }
}

export function readStored(key: string): string | null {
  return readFrom(browserStorage, key);
}

export function writeStored(key: string, value: string | null): void {
  writeTo(browserStorage, key, value);
}

/** Per tab (sessionStorage): kept through a reload of the tab, not shared with other tabs. */
export function readTabStored(key: string): string | null {
  return readFrom(browserSessionStorage, key);
}

export function writeTabStored(key: string, value: string | null): void {
  writeTo(browserSessionStorage, key, value);
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

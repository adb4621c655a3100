/**
 * A yes/no choice of the panels that outlives the page: kept in local storage (src/state/storage.ts,
 * which never throws) under `key`, for every visitor and on every map, as the category filters
 * are kept. A value that is not 'true' or 'false' reads as `fallback`.
 */
import { useCallback, useState } from 'react';
import { readStored, writeStored } from '../../state/storage';

/** "Only quests on this map" in the quest list. */
export const QUESTS_THIS_MAP_KEY = 'map:quests:thisMapOnly';

export function readStoredChoice(key: string, fallback: boolean): boolean {
  const raw = readStored(key);
  return raw === 'true' ? true : raw === 'false' ? false : fallback;
}

export function useStoredChoice(key: string, fallback = false): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => readStoredChoice(key, fallback));
  const change = useCallback(
    (next: boolean) => {
      writeStored(key, String(next));
      setValue(next);
    },
    [key],
  );
  return [value, change];
}

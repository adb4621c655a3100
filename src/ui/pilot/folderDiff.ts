/**
 * The pure part of watching the screenshot folder on /pilot: which file names are new since the
 * last look, and in which order to send them. The folder is listed again and again (on each
 * change the browser reports, or every 500 ms); only names not seen before count, oldest first.
 */

/** A file seen in the folder; `lastModified` (epoch ms) orders the new ones when known. */
export interface FolderFile {
  name: string;
  lastModified?: number;
}

/** The names of a listing that were not seen before, in listing order (each once). */
export function newNames(seen: ReadonlySet<string>, listing: Iterable<string>): string[] {
  const out: string[] = [];
  const taken = new Set<string>();
  for (const name of listing) {
    if (seen.has(name) || taken.has(name)) continue;
    taken.add(name);
    out.push(name);
  }
  return out;
}

/**
 * The new files in the order they were made: by modification time, then by name (the game's
 * names start with the date and time, so they sort in time order too).
 */
export function inSendOrder(files: readonly FolderFile[]): FolderFile[] {
  return [...files].sort((a, b) => {
    const byTime = (a.lastModified ?? 0) - (b.lastModified ?? 0);
    if (byTime !== 0) return byTime;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

/**
 * What a look at the folder changes: the names to process (new since `seen`) and the new set of
 * seen names (the listing: a file deleted and made again counts once more). The first look
 * (`seen` null) takes everything as seen: screenshots of earlier raids are never sent.
 */
export function diffFolder(seen: ReadonlySet<string> | null, listing: readonly string[]): { added: string[]; seen: Set<string> } {
  const next = new Set(listing);
  if (seen === null) return { added: [], seen: next };
  return { added: newNames(seen, listing), seen: next };
}

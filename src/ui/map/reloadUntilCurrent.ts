/**
 * Reads a map's marker list again until it is the server's: a live change that lands while the
 * list is read can be overwritten by that list (read before the change was made), so once
 * loaded the list is checked against the server's (`changed`: true when it differs, false or
 * null when not or when it cannot tell) and read once more while it differs, `atMost` reads in
 * all (changes are rare; a feed of constant changes is caught up by the live events anyway).
 * Answers how many reads it took; a failed read or check throws / ends the loop.
 */
export async function reloadUntilCurrent(
  reload: () => Promise<unknown>,
  changed: () => Promise<boolean | null>,
  { atMost = 3, stopped = () => false }: { atMost?: number; stopped?: () => boolean } = {},
): Promise<number> {
  let reads = 0;
  while (reads < atMost && !stopped()) {
    await reload();
    reads++;
    if (stopped() || (await changed().catch(() => null)) !== true) break;
  }
  return reads;
}

/**
 * Where an edit form's upload goes on the server. The form's image rows may be in another order
 * than the stored marker's (moved, removed or added, not saved yet), but the server writes an
 * upload into its stored image at an index, the one the upload names (`replaces`: that image's
 * URL; null: a new image at the end; server/routes/admin.ts). So a row is matched to the stored
 * image it shows, by its URL (an upload is a new file, so a URL names one picture): the upload
 * replaces that image wherever it is stored, and the form puts the new file into the row the
 * admin picked, keeping the order the admin sees for the Save (docs/DECISIONS.md).
 */

/** The server's image index an upload goes to, and the image there it replaces (null: a new one, at the end). */
export interface UploadSlot {
  index: number;
  replaces: string | null;
}

/**
 * The stored image that row `row` of the form shows: the stored one with the row's URL (the
 * k-th row showing a URL is the k-th stored image with it, should one file be listed twice). A
 * row whose URL is not stored (a new row, a URL typed since) is a new image, added at the end
 * of the stored list; the form keeps it where the admin put it.
 */
export function uploadSlot(stored: readonly { img: string }[], rows: readonly { img: string }[], row: number): UploadSlot {
  const url = rows[row]?.img ?? '';
  if (url) {
    const before = rows.slice(0, row).filter((image) => image.img === url).length;
    const at = stored.map((image, i) => (image.img === url ? i : -1)).filter((i) => i >= 0)[before];
    if (at !== undefined) return { index: at, replaces: stored[at].img };
  }
  return { index: stored.length, replaces: null };
}

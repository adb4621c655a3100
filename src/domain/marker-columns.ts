/**
 * Markers as columns: the compact form the markers worker hands the engine (typed arrays,
 * transferred, one row per marker), and one row of it for a single-marker edit.
 */

/** Column-wise marker data for the whole map, as the worker produces it (one row per marker). */
export interface MarkerColumns {
  uids: string[];
  /** Map pixels. */
  x: Float32Array;
  y: Float32Array;
  level: Int16Array;
  /** Index into SUBCATEGORIES (src/domain/categories.ts): picks the icon. */
  icon: Uint8Array;
  /** Label text in the current language. */
  labels: string[];
  /** 1 where the label always shows (extractions), 0 where it shows on hover only. */
  alwaysLabel: Uint8Array;
}

/** One marker's columns (one row of MarkerColumns), for an edit of a single marker. */
export interface MarkerRow {
  uid: string;
  /** Map pixels. */
  x: number;
  y: number;
  level: number;
  /** Index into SUBCATEGORIES. */
  icon: number;
  /** Label text in the current language. */
  label: string;
  /** 1 where the label always shows (extractions). */
  alwaysLabel: 0 | 1;
}

/** Row `index` of `columns`. */
export function markerRowAt(columns: MarkerColumns, index: number): MarkerRow {
  return {
    uid: columns.uids[index],
    x: columns.x[index],
    y: columns.y[index],
    level: columns.level[index],
    icon: columns.icon[index],
    label: columns.labels[index],
    alwaysLabel: columns.alwaysLabel[index] === 1 ? 1 : 0,
  };
}

/** Writes one row into columns at `index` (one past the end appends to the uid and label lists). */
export function writeMarkerRow(columns: MarkerColumns, index: number, row: MarkerRow): void {
  columns.uids[index] = row.uid;
  columns.labels[index] = row.label;
  columns.x[index] = row.x;
  columns.y[index] = row.y;
  columns.level[index] = row.level;
  columns.icon[index] = row.icon;
  columns.alwaysLabel[index] = row.alwaysLabel;
}

/**
 * Many strings as one: their concatenation and each one's length in UTF-16 code units. The
 * markers worker sends uids and labels this way: a structured clone of 200,000 short strings
 * was about 30 ms of the page's main thread at 100,000 markers; two long strings and two
 * transferred arrays are copied in one go, and the page cuts them in a few ms.
 */
export interface PackedStrings {
  text: string;
  lengths: Uint32Array;
}

export function packStrings(strings: readonly string[]): PackedStrings {
  const lengths = new Uint32Array(strings.length);
  for (let i = 0; i < strings.length; i++) lengths[i] = strings[i].length;
  return { text: strings.join(''), lengths };
}

/** The strings of a pack; throws when the lengths do not add up to its text. */
export function unpackStrings({ text, lengths }: PackedStrings): string[] {
  const out = new Array<string>(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const end = at + lengths[i];
    out[i] = text.slice(at, end);
    at = end;
  }
  if (at !== text.length) throw new Error(`packed strings: lengths add up to ${at}, the text has ${text.length}`);
  return out;
}

/** MarkerColumns as they cross from the worker to the page: uids and labels packed. */
export type PackedMarkerColumns = Omit<MarkerColumns, 'uids' | 'labels'> & { uids: PackedStrings; labels: PackedStrings };

export function packColumns(columns: MarkerColumns): PackedMarkerColumns {
  return { ...columns, uids: packStrings(columns.uids), labels: packStrings(columns.labels) };
}

export function unpackColumns(columns: PackedMarkerColumns): MarkerColumns {
  return { ...columns, uids: unpackStrings(columns.uids), labels: unpackStrings(columns.labels) };
}

/** The buffers of packed columns, to transfer rather than copy. */
export function packedColumnBuffers(columns: PackedMarkerColumns): ArrayBuffer[] {
  const { x, y, level, icon, alwaysLabel, uids, labels } = columns;
  return [x.buffer, y.buffer, level.buffer, icon.buffer, alwaysLabel.buffer, uids.lengths.buffer, labels.lengths.buffer] as ArrayBuffer[];
}

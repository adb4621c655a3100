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

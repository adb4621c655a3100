/**
 * A short diff of two versions of a marker, field by field, for the edit mode's conflict view
 * and the change history: only the fields an admin edits (and the position), each value as a
 * short line of text. Plain data in, plain text out: the UI renders it as text.
 */
import type { Marker } from '../../domain/marker';

export type DiffField =
  | 'name'
  | 'nameEn'
  | 'nameRu'
  | 'desc'
  | 'descEn'
  | 'descRu'
  | 'category'
  | 'subCategory'
  | 'level'
  | 'position'
  | 'quest'
  | 'items'
  | 'images';

export interface FieldChange {
  field: DiffField;
  before: string;
  after: string;
}

/** The longest value shown; longer text is cut with an ellipsis. */
export const DIFF_VALUE_MAX = 80;

/** What the diff reads of a marker (read-only, so valtio snapshots fit). */
export interface MarkerLike {
  readonly name?: string;
  readonly desc?: string;
  readonly name_l10n?: Readonly<Marker['name_l10n']>;
  readonly desc_l10n?: Readonly<Marker['desc_l10n']>;
  readonly category?: string;
  readonly subCategory?: string;
  readonly level?: number;
  readonly geometry?: { readonly x: number; readonly y: number };
  readonly questUid?: string | null;
  readonly itemsUid?: readonly string[];
  readonly imgs?: readonly { readonly img: string; readonly name: string; readonly desc: string }[];
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DIFF_VALUE_MAX ? `${line.slice(0, DIFF_VALUE_MAX - 1)}…` : line;
}

const READERS: Record<DiffField, (m: MarkerLike) => string> = {
  name: (m) => m.name ?? '',
  nameEn: (m) => m.name_l10n?.en ?? '',
  nameRu: (m) => m.name_l10n?.ru ?? '',
  desc: (m) => m.desc ?? '',
  descEn: (m) => m.desc_l10n?.en ?? '',
  descRu: (m) => m.desc_l10n?.ru ?? '',
  category: (m) => m.category ?? '',
  subCategory: (m) => m.subCategory ?? '',
  level: (m) => (m.level === undefined ? '' : String(m.level)),
  position: (m) => (m.geometry ? `${m.geometry.x}, ${m.geometry.y}` : ''),
  quest: (m) => m.questUid ?? '',
  items: (m) => (m.itemsUid ?? []).join(', '),
  images: (m) => (m.imgs ?? []).map((i) => [i.name, i.img, i.desc].filter(Boolean).join(' · ')).join('; '),
};

export const DIFF_FIELDS = Object.keys(READERS) as DiffField[];

/** The fields that differ between `before` and `after` (either may be missing: an add or a delete). */
export function markerDiff(before: MarkerLike | null | undefined, after: MarkerLike | null | undefined): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of DIFF_FIELDS) {
    const a = before ? READERS[field](before) : '';
    const b = after ? READERS[field](after) : '';
    if (a !== b) changes.push({ field, before: short(a), after: short(b) });
  }
  return changes;
}

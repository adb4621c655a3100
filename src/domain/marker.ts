/**
 * The Marker entity (spec §3) and its validation. A marker with a bad field is reported,
 * never fatal to the list it came in: `validateMarkers` keeps the good ones.
 */
import { z } from 'zod';
import { isKnownCategory } from './categories';
import { MAP_IDS } from './maps';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

const l10n = z.object({ en: z.string().optional(), ru: z.string().optional() }).partial();

export const markerImageSchema = z.object({
  img: z.string().min(1),
  name: z.string().default(''),
  desc: z.string().default(''),
});

export const markerSchema = z
  .object({
    uid: z.string().min(1).max(64),
    map: z.enum(MAP_IDS),
    category: z.string(),
    subCategory: z.string(),
    level: z.number().int().finite(),
    geometry: z.object({ x: z.number().finite(), y: z.number().finite() }),
    name: z.string().default(''),
    desc: z.string().default(''),
    imgs: z.array(markerImageSchema).default([]),
    name_l10n: l10n.default({}),
    desc_l10n: l10n.default({}),
    questUid: z.string().min(1).optional().nullable(),
    itemsUid: z.array(z.string()).default([]),
    /** Server-managed (≥ 1 once stored); sent back on an update as the version the edit was based on. */
    version: z.number().int().min(0).optional(),
  })
  // Other fields are passed through as given by the server (spec §3).
  .loose()
  .refine((m) => isKnownCategory(m.category, m.subCategory), {
    message: 'unknown category / subCategory pair',
    path: ['subCategory'],
  });

export type MarkerImage = z.infer<typeof markerImageSchema>;
export type Marker = z.infer<typeof markerSchema>;

export interface MarkerIssue {
  /** Position of the marker in the input list. */
  index: number;
  uid?: string;
  message: string;
}

export interface MarkerValidation {
  markers: Marker[];
  issues: MarkerIssue[];
}

/** Validates each entry on its own: good markers are kept, bad ones are reported with the reason. */
export function validateMarkers(input: unknown): MarkerValidation {
  if (!Array.isArray(input)) {
    return { markers: [], issues: [{ index: -1, message: 'markers is not a list' }] };
  }
  const markers: Marker[] = [];
  const issues: MarkerIssue[] = [];
  input.forEach((raw, index) => {
    const result = markerSchema.safeParse(raw);
    if (result.success) {
      markers.push(result.data);
    } else {
      const uid = typeof (raw as { uid?: unknown })?.uid === 'string' ? (raw as { uid: string }).uid : undefined;
      const message = result.error.issues.map((i) => `${i.path.join('.') || 'marker'}: ${i.message}`).join('; ');
      issues.push({ index, uid, message });
    }
  });
  return { markers, issues };
}

/** Localised text of a marker field, falling back to the plain field. */
export function localized(marker: Pick<Marker, 'name' | 'desc' | 'name_l10n' | 'desc_l10n'>, field: 'name' | 'desc', lang: Language): string {
  const table = field === 'name' ? marker.name_l10n : marker.desc_l10n;
  return table?.[lang] || marker[field];
}

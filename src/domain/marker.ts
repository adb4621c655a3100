/**
 * The Marker entity (spec §3) and its validation. A marker with a bad field is reported,
 * never fatal to the list it came in: `validateMarkers` keeps the good ones. Every field is
 * bounded (src/domain/marker-bounds.ts); the server also checks that `questUid` exists.
 */
import { z } from 'zod';
import { isKnownCategory } from './categories';
import { lazySchema } from './lazy-schema';
import { MAP_IDS } from './maps';
import { MARKER_BOUNDS, coordinateBounds, imageUrlProblem, passThroughIssue } from './marker-bounds';

export { MARKER_BOUNDS, MARKER_FIELDS } from './marker-bounds';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

const B = MARKER_BOUNDS;
const atMost = (n: number) => ({ error: `must be at most ${n} characters` });

const l10n = (max: number) => z.object({ en: z.string().max(max, atMost(max)).optional(), ru: z.string().max(max, atMost(max)).optional() }).partial();

const buildMarkerImageSchema = () =>
  z.object({
    img: z.string().min(1).superRefine((url, ctx) => {
      const problem = imageUrlProblem(url);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    name: z.string().max(B.imageName, atMost(B.imageName)).default(''),
    desc: z.string().max(B.imageDesc, atMost(B.imageDesc)).default(''),
  });

/** Built on first use (lazy-schema.ts): the page imports this module long before it validates a marker. */
export const markerImageSchema = lazySchema(buildMarkerImageSchema);

const buildMarkerSchema = () =>
  z
    .object({
      uid: z.string().min(1).max(B.uid, atMost(B.uid)),
      map: z.enum(MAP_IDS),
      category: z.string().max(B.category, atMost(B.category)),
      subCategory: z.string().max(B.category, atMost(B.category)),
      level: z
        .number()
        .int()
        .finite()
        .min(B.level.min, { error: `must be a whole number from ${B.level.min} to ${B.level.max}` })
        .max(B.level.max, { error: `must be a whole number from ${B.level.min} to ${B.level.max}` }),
      geometry: z.object({ x: z.number().finite(), y: z.number().finite() }),
      name: z.string().max(B.name, atMost(B.name)).default(''),
      desc: z.string().max(B.desc, atMost(B.desc)).default(''),
      imgs: z.array(markerImageSchema.schema).max(B.images, { error: `must have at most ${B.images} images` }).default([]),
      name_l10n: l10n(B.name).default({}),
      desc_l10n: l10n(B.desc).default({}),
      questUid: z.string().min(1).max(B.questUid, atMost(B.questUid)).optional().nullable(),
      itemsUid: z
        .array(z.string().max(B.itemUid, atMost(B.itemUid)))
        .max(B.items, { error: `must have at most ${B.items} items` })
        .default([]),
      /** Server-managed (≥ 1 once stored); sent back on an update as the version the edit was based on. */
      version: z.number().int().min(0).optional(),
    })
    // Other fields are passed through as given by the server (spec §3), within bounds.
    .loose()
    .superRefine((m, ctx) => {
      // Coordinates within the map and its margin (marker-bounds.ts).
      const box = coordinateBounds(m.map);
      if (m.geometry.x < box.minX || m.geometry.x > box.maxX) {
        ctx.addIssue({ code: 'custom', path: ['geometry', 'x'], message: `must be from ${box.minX} to ${box.maxX} on map ${m.map} (its width and a 10 % margin)` });
      }
      if (m.geometry.y < box.minY || m.geometry.y > box.maxY) {
        ctx.addIssue({ code: 'custom', path: ['geometry', 'y'], message: `must be from ${box.minY} to ${box.maxY} on map ${m.map} (its height and a 10 % margin)` });
      }
      const extra = passThroughIssue(m);
      if (extra) ctx.addIssue({ code: 'custom', path: [extra.field], message: extra.message });
    })
    .refine((m) => isKnownCategory(m.category, m.subCategory), {
      message: 'unknown category / subCategory pair',
      path: ['subCategory'],
    });

/** A marker from untrusted input; built on first use (lazy-schema.ts). */
export const markerSchema = lazySchema(buildMarkerSchema);

export type MarkerImage = z.infer<ReturnType<typeof buildMarkerImageSchema>>;
export type Marker = z.infer<ReturnType<typeof buildMarkerSchema>>;

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

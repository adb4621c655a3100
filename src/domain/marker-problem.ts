/**
 * Why the edit form refuses a marker field, as data the form can say in the page's language
 * (src/ui/popup/fieldProblem.ts): the field (a path as prepareMarkerForSave reports it, image
 * indexes the draft's own: `desc_l10n.ru`, `imgs.1.name`), the kind of rule it breaks and the
 * rule's limit. The English messages of the schema stay for the server and the logs. Pure.
 */
import { MARKER_BOUNDS } from './marker-bounds';
import { unicodeTextProblem } from './unicode-text';

export type MarkerProblemKind =
  /** Text longer than `limit` (UTF-16 code units, as every length bound counts). */
  | 'tooLong'
  /** A list with more than `limit` entries (images, items). */
  | 'tooMany'
  /** A subcategory that is not one of its category's. */
  | 'unknownCategory'
  /** Text that cannot be stored: U+0000 or a lone surrogate (the server refuses both, server/http/no-nul.ts). */
  | 'badCharacters'
  /** An image with a name or description but no file. */
  | 'noFile'
  /** An image address that is neither a path on the site nor an http(s) URL. */
  | 'badUrl'
  /** The level: not a whole number, or outside its bounds (the form says which from the text typed). */
  | 'level'
  /** Any other rule. */
  | 'invalid';

export interface MarkerFieldProblem {
  field: string;
  kind: MarkerProblemKind;
  limit?: number;
}

/** The schema's message for a subcategory outside its category (src/domain/marker.ts). */
export const UNKNOWN_CATEGORY_PAIR = 'unknown category / subCategory pair';

/** The parts of a zod issue read here (zod 4: `too_big` carries `origin` and `maximum`). */
export interface IssueLike {
  code: string;
  origin?: string;
  maximum?: number | bigint;
  message?: string;
}

const IMAGE_URL = /^imgs\.\d+\.img$/;

/** The kind (and limit) of the schema's objection `issue` to `field`. */
export function issueProblem(field: string, issue: IssueLike): MarkerFieldProblem {
  if (field === 'level' || field.startsWith('level.')) return { field: 'level', kind: 'level' };
  if (issue.code === 'too_big' && (typeof issue.maximum === 'number' || typeof issue.maximum === 'bigint')) {
    if (issue.origin === 'string') return { field, kind: 'tooLong', limit: Number(issue.maximum) };
    if (issue.origin === 'array') return { field, kind: 'tooMany', limit: Number(issue.maximum) };
  }
  if (field === 'subCategory' && issue.message === UNKNOWN_CATEGORY_PAIR) return { field, kind: 'unknownCategory' };
  // The image URL rule (marker-bounds.ts imageUrlProblem): a scheme, a `..`, a control character.
  if (IMAGE_URL.test(field)) return { field, kind: 'badUrl' };
  return { field, kind: 'invalid' };
}

/** Why `text` cannot be stored, in English (the server's words), or undefined when it can. */
export function textCharacterProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  return unicodeTextProblem(text);
}

/**
 * The length bound of the text field at `field` (a path as above), or undefined for a field
 * with none the form shows: the form counts towards it (src/ui/popup/LengthCounter.tsx).
 */
export function textLimit(field: string): number | undefined {
  const B = MARKER_BOUNDS;
  if (field === 'name' || /^name_l10n\.[a-z]+$/.test(field)) return B.name;
  if (field === 'desc' || /^desc_l10n\.[a-z]+$/.test(field)) return B.desc;
  const image = /^imgs\.\d+\.(img|name|desc)$/.exec(field);
  if (image) return image[1] === 'img' ? B.imageUrl : image[1] === 'name' ? B.imageName : B.imageDesc;
  return undefined;
}

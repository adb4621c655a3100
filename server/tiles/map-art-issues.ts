/**
 * map.json's mistakes in an operator's words. zod's own messages for map.json's unions (a
 * layer's names: a name or a list; placement: bounds, rect or fill) are "Invalid input" at the
 * union, naming neither the inner field nor the forms allowed. Here a union names its forms, and
 * when the value has the key of one form (`{"rect": …}`) that form's inner mistakes too:
 *   placement: expected one of {"bounds": …}, {"rect": …}, {"fill": true}; placement.rect.width: expected a number, got "100"
 */
import type { z } from 'zod';
import type { MapDefinition } from '../../src/domain/maps';
import { MAP_ART_FILE, MapArtError, mapArtSchema, parseMapArt, type MapArt } from '../../src/domain/map-art';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

const PLACEMENT_FORMS =
  '{"bounds": [[x, z], [x, z]]} (game metres), {"rect": {"x": …, "y": …, "width": …, "height": …}} (map pixels), {"fill": true}';
const NAMES_FORMS = 'a group name ("Ground_Level") or a list of them (["Ground_Level", "Floor_1"])';
const ROOT_FIELDS = Object.keys(mapArtSchema.shape);

/** The forms a union of map.json allows, by where it is. */
function unionForms(path: Path): string | undefined {
  if (path.length === 1 && path[0] === 'placement') return PLACEMENT_FORMS;
  if (path.length === 2 && path[0] === 'layers') return NAMES_FORMS;
  return undefined;
}

function valueAt(json: unknown, path: Path): unknown {
  let v = json;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** A value as it is written in the file, cut short. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const KIND: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  boolean: 'true or false',
};

const fieldName = (path: Path) => (path.length ? path.map(String).join('.') : '(top level)');

/** What is wrong at one issue, without its field. */
function problem(issue: Issue, value: unknown, path: Path): string {
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? `missing (expected ${KIND[issue.expected] ?? issue.expected})` : `expected ${KIND[issue.expected] ?? issue.expected}, got ${shown(value)}`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${shown(value)}`;
    case 'unrecognized_keys': {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      const allowed = path.length === 0 ? ` (its fields: ${ROOT_FIELDS.join(', ')})` : '';
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}${allowed}`;
    }
    case 'too_small':
      if (issue.origin === 'array') return `expected at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}, got ${shown(value)}`;
      if (issue.origin === 'string') return `expected a name of at least ${issue.minimum} character${Number(issue.minimum) === 1 ? '' : 's'}, got ${shown(value)}`;
      return `expected a number ${issue.inclusive ? 'of at least' : 'above'} ${issue.minimum}, got ${shown(value)}`;
    case 'too_big':
      if (issue.origin === 'array') return `expected at most ${issue.maximum} items, got ${shown(value)}`;
      return `expected a number ${issue.inclusive ? 'of at most' : 'below'} ${issue.maximum}, got ${shown(value)}`;
    default:
      return issue.message;
  }
}

/**
 * The branch of a union the value was meant for: the one whose mistakes all lie inside keys the
 * value has (`{"rect": {"width": "100"}}` is the rect form with a bad width; `{"fill": false}` the
 * fill form with a bad value). None when the value fits no form's keys (`{}`, `5`, `{"rect": 1, "fill": true}`).
 */
function meantBranch(branches: readonly (readonly Issue[])[], value: unknown): readonly Issue[] | undefined {
  const meant = branches.filter((issues) => issues.every((i) => i.path.length > 0 && valueAt(value, i.path.slice(0, 1)) !== undefined));
  return meant.length === 1 ? meant[0] : undefined;
}

function describe(issue: Issue, json: unknown, base: Path): string[] {
  const path = [...base, ...issue.path];
  const value = valueAt(json, path);
  if (issue.code === 'invalid_union') {
    const forms = unionForms(path);
    const head = forms
      ? `${fieldName(path)}: expected one of ${forms}`
      : `${fieldName(path)}: expected ${[...new Set(issue.errors.flatMap((b) => b.map((i) => problem(i, valueAt(value, i.path), [...path, ...i.path]).replace(/, got .*$/, ''))))].join(' or ')}`;
    const branch = meantBranch(issue.errors, value);
    if (!branch) return [`${head}, got ${shown(value)}`];
    return [head, ...branch.flatMap((inner) => describe(inner, json, path))];
  }
  return [`${fieldName(path)}: ${problem(issue, value, path)}`];
}

/** One line per mistake, each naming its field ("placement.rect.width: expected a number, got \"100\""). */
export function describeMapArtIssues(issues: readonly Issue[], json: unknown): string[] {
  return issues.flatMap((issue) => describe(issue, json, []));
}

/**
 * parseMapArt with map.json's shape mistakes said as describeMapArtIssues says them. Throws
 * MapArtError naming `file` first, like parseMapArt.
 */
export function readMapArt(map: MapDefinition, text: string | undefined, file = MAP_ART_FILE): MapArt {
  if (text !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch {
      // Not JSON: parseMapArt says so, with the parser's position.
      return parseMapArt(map, text, file);
    }
    const parsed = mapArtSchema.safeParse(json);
    if (!parsed.success) throw new MapArtError(`${file}: ${describeMapArtIssues(parsed.error.issues, json).join('; ')}`);
  }
  return parseMapArt(map, text, file);
}

/**
 * Generators of hostile request input for the fuzz tests (requests.fuzz.test.ts): JSON bodies
 * kept as text so that they can hold what `JSON.stringify` never writes (raw number tokens such
 * as `1e999`, duplicate keys, `__proto__` keys, tens of thousands of nested arrays), query
 * strings, and URL path segments.
 *
 * A body is built from a small JSON model: plain values, `Obj` (ordered entries, so a key may
 * repeat and `__proto__` is an ordinary key) and `Raw` (text written as is).
 */
import fc from 'fast-check';

/** JSON text written verbatim into a body (a number token, deep nesting, broken JSON). */
export class Raw {
  constructor(readonly text: string) {}
}

/** A JSON object as ordered entries: keys may repeat, `__proto__` is just a key. */
export class Obj {
  constructor(readonly entries: readonly (readonly [string, Json])[]) {}

  static of(value: Record<string, Json>): Obj {
    return new Obj(Object.entries(value));
  }

  get(key: string): Json | undefined {
    return this.entries.find(([k]) => k === key)?.[1];
  }

  /** A copy with `key` set to `value` (replaced in place when present, else appended). */
  with(key: string, value: Json): Obj {
    const at = this.entries.findIndex(([k]) => k === key);
    if (at < 0) return new Obj([...this.entries, [key, value]]);
    return new Obj(this.entries.map((entry, i) => (i === at ? [key, value] : entry)));
  }

  without(key: string): Obj {
    return new Obj(this.entries.filter(([k]) => k !== key));
  }
}

export type Json = null | boolean | number | string | Raw | Obj | readonly Json[] | { readonly [key: string]: Json };

/** JSON text of a model value. Recursion is bounded by the generators (a few levels); deep nesting comes as Raw. */
export function jsonText(value: Json | undefined): string {
  if (value === undefined) return 'null';
  if (value instanceof Raw) return value.text;
  if (value instanceof Obj) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map((v) => jsonText(v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, Json>)[k])}`).join(',')}}`;
  }
  // NaN and ±Infinity become null, as JSON.stringify writes them.
  return JSON.stringify(value) ?? 'null';
}

/** Nested arrays (or objects) `depth` deep, as text: no recursion anywhere. */
export function nestedText(depth: number, kind: 'array' | 'object' = 'array'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Number tokens that are valid JSON but out of every range (1e999 parses to Infinity). */
export const RAW_NUMBERS = ['1e999', '-1e999', '1e-400', '9007199254740993', '-9007199254740993', '1e308', '-0', '0.5', '-1', '2147483648', '-2147483649', '1e21', '99999999999999999999', '4.9e-324'];
/** Tokens that look like numbers or values but are not JSON: the body is malformed. */
export const INVALID_TOKENS = ['NaN', 'Infinity', '-Infinity', 'undefined', '0x10', '01', '.5', '+1', "'x'", '1_000'];
/** Keys that name Object.prototype members or poison prototypes when merged naively. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

/** String lengths just inside and outside the bounds the server knows (src/domain/marker-bounds.ts, auth). */
export const STRING_SIZES = [0, 1, 2, 3, 7, 8, 32, 33, 64, 65, 199, 200, 201, 1000, 1001, 2048, 2049, 4000, 4001, 8193, 70_000, 300_000];

const SPECIAL_STRINGS = [
  '', ' ', '\u0000', '\u0000admin', '\u202egnp.exe', '\ufeff{}', 'NaN', 'Infinity', '-1', '1e999', 'null', 'true', 'false', '[]', '{}',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '../../etc/passwd', '..\\..\\windows', '%00', '%2e%2e%2f', 'javascript:alert(1)',
  'data:image/png;base64,AAAA', 'data:text/html;base64,PHNjcmlwdD4=', '//evil.example/x.png', 'http://', 'https://evil.example/a.png',
  '\ud800', '\udfff', 'Ω≈ç√∫', '𝕏𝕐ℤ', '🙂👩‍👩‍👧‍👦', 'Ｆａｃｔｏｒｙ', 'customs ', ' factory', 'CUSTOMS', 'ﬀ', 'İ', '\r\n\r\nHTTP/1.1 200 OK',
  "' OR '1'='1", '"; DROP TABLE markers; --', '${7*7}', '{{7*7}}', '__proto__', 'constructor', 'prototype',
];

export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...STRING_SIZES), fc.constantFrom('a', 'я', '🙂', '\u0000', ' ', 'A1-', '<'))
  .map(([n, c]) => c.repeat(Math.ceil(n / c.length)).slice(0, n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 3 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: hugeString, weight: 2 },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, -1, 1.5, -5, -6, 10, 11, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), 2 ** 63, 1e308, -1e308, 5e-324, 0.1),
);

/** A key for an extra field: ordinary, unicode, huge, empty, or a prototype key. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...PROTO_KEYS), weight: 3 },
  { arbitrary: fc.constantFrom('extra', 'x', '', ' ', 'version', 'uid', 'MAP', 'Map', 'map ', 'imgs[]', 'a.b', '$where', 'id', 'json', 'extraStuff'), weight: 3 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 1 },
  { arbitrary: hugeString.filter((s) => s.length <= 70_000), weight: 1 },
);

const scalar: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new Raw(t)), weight: 2 },
);

/** Any hostile value: scalars, lists, objects with hostile keys, deep nesting, JSON values. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: scalar, weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 2 },
  { arbitrary: fc.array(scalar, { maxLength: 30 }), weight: 2 },
  { arbitrary: fc.array(fc.tuple(hostileKey, scalar), { maxLength: 8 }).map((entries) => new Obj(entries)), weight: 2 },
  {
    arbitrary: fc.tuple(fc.constantFrom(2, 8, 9, 10, 64, 1000, 5000, 20_000), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([d, k]) => new Raw(nestedText(d, k))),
    weight: 2,
  },
  // Long lists: past every count bound (images, items, progress entries).
  { arbitrary: fc.tuple(fc.constantFrom(21, 101, 2001, 20_000), scalar).map(([n, v]) => new Raw(`[${Array.from({ length: n }, () => jsonText(v)).join(',')}]`)), weight: 1 },
);

/** Body text that is not a JSON object at all: other JSON values, broken JSON, deep nesting, noise. */
export const notAnObjectBody: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', ' ', '{', '}', '{"a":}', '{"a" 1}', '{"a":1,}', '[1,]', '{}}', '\ufeff{}', 'null', '[]', '"x"', '0', '{"a":1}{"b":2}', '\u0000', ...INVALID_TOKENS.map((t) => `{"a":${t}}`)),
  fc.constantFrom(10, 1000, 5000, 100_000).map((d) => nestedText(d)),
  hugeString.map((s) => JSON.stringify(s)),
);

export type Mutation =
  | { kind: 'set'; field: string; value: Json }
  | { kind: 'drop'; field: string }
  | { kind: 'duplicate'; field: string; value: Json }
  | { kind: 'proto'; key: string; value: Json };

/**
 * One change to a valid body: a field (known, or a new extra key) set to a hostile value, a
 * field left out, a field given twice (the second one hostile), or a prototype key added.
 */
export function mutation(fields: readonly string[]): fc.Arbitrary<Mutation> {
  const field = fc.oneof({ arbitrary: fc.constantFrom(...fields), weight: 4 }, { arbitrary: hostileKey, weight: 1 });
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('set' as const), field, value: hostileValue }), weight: 8 },
    { arbitrary: fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...fields) }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('duplicate' as const), field: fc.constantFrom(...fields), value: hostileValue }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('proto' as const), key: fc.constantFrom('__proto__', 'constructor'), value: fc.oneof(hostileValue, fc.constant(Obj.of({ prototype: Obj.of({ admin: true }) })), fc.constant(Obj.of({ admin: true, pro: true }))) }), weight: 1 },
  );
}

export function applyMutation(body: Obj, m: Mutation): Obj {
  switch (m.kind) {
    case 'set':
      return body.with(m.field, m.value);
    case 'drop':
      return body.without(m.field);
    case 'duplicate':
      return new Obj([...body.entries, [m.field, m.value]]);
    case 'proto':
      return new Obj([...body.entries, [m.key, m.value]]);
  }
}

/** The field a mutation touched (the key that a 400 should name). */
export function mutatedField(m: Mutation): string {
  return m.kind === 'proto' ? m.key : m.field;
}

/** encodeURIComponent that also takes lone surrogates (as U+FFFD) instead of throwing. */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** A query string from hostile pairs; sometimes with raw, malformed percent-encoding. */
export function queryString(keys: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const pair = fc.tuple(fc.oneof({ arbitrary: fc.constantFrom(...keys), weight: 4 }, { arbitrary: hostileKey.filter((k) => k.length < 2000), weight: 1 }), values);
  const encoded = fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
  const raw = fc.constantFrom('%', '%zz', 'map=%E0%A4%A', 'map=%ff', '&&&', '===', 'map', 'map=', 'map[]=customs', 'map[0]=customs', 'map=customs&map=factory', 'map=customs%00', '__proto__[admin]=1', 'constructor[prototype][admin]=1', '?map=customs', 'map=customs#x');
  return fc.oneof({ arbitrary: encoded, weight: 4 }, { arbitrary: raw, weight: 1 }, { arbitrary: fc.tuple(encoded, raw).map(([a, b]) => `${a}&${b}`), weight: 1 });
}

/** A URL path segment: a hostile string, percent-encoded, or one of a few raw oddities. */
export function pathSegment(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...valid), weight: 3 },
    { arbitrary: hostileString.filter((s) => s.length <= 2000).map(encode), weight: 3 },
    { arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%', '%zz', '%E0%A4%A', '~', '*', ';', '%20', '+', 'a%2Fb', '%C0%AE'), weight: 1 },
  );
}

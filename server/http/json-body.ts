/**
 * The JSON body parser of every route: Fastify's default refuses prototype keys too, but says
 * only "Body is not valid JSON", which names nothing. This one answers 400 with what is wrong:
 * `body: not valid JSON (…)`, or `<field>: a key named "__proto__" is not accepted` (and the same
 * for `constructor.prototype`), so a client can tell a typo from a refused key. A body that is
 * not UTF-8 is refused too (decodeJsonBody), rather than read with U+FFFD in place of its bad bytes.
 */
import type { FastifyInstance } from 'fastify';

class BodyError extends Error {
  readonly statusCode = 400;
}

/** Values looked at per body at most when searching for prototype keys (bodies are size-bounded). */
const MAX_NODES = 500_000;

/**
 * The first prototype key in a parsed value (`__proto__`, or `constructor` holding an object
 * with `prototype`), or null. Iterative: a deeply nested body cannot overflow the stack (a
 * JSON.parse reviver would).
 */
function findPrototypeKey(value: unknown): string | null {
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0 && ++seen <= MAX_NODES) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
      continue;
    }
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (key === '__proto__') return 'a key named "__proto__" is not accepted';
      if (key === 'constructor' && child && typeof child === 'object' && Object.hasOwn(child, 'prototype')) {
        return 'a key named "constructor" holding "prototype" is not accepted';
      }
      stack.push(child);
    }
  }
  return null;
}

/** Parses JSON text, refusing `__proto__` keys and `constructor` objects with a `prototype` key. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new BodyError('body: empty, expected JSON');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BodyError(`body: not valid JSON (${(error as Error).message})`);
  }
  const refused = findPrototypeKey(value);
  if (refused) throw new BodyError(`body: ${refused}`);
  return value;
}

/**
 * The text of a JSON body, which must be UTF-8: bytes that are not (a surrogate encoded as
 * `ED A0 80`, a stray continuation byte) would otherwise become U+FFFD, one to three per bad
 * sequence, and be stored changed (and possibly over a field's length bound). Answers
 * `body: not valid UTF-8 text (a bad byte sequence at byte N)`.
 */
export function decodeJsonBody(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  // U+FFFD is in the text when the bytes held it or held a bad sequence: only then compare.
  if (text.includes('\uFFFD')) {
    const again = Buffer.from(text, 'utf8');
    if (!again.equals(bytes)) {
      let at = 0;
      while (at < bytes.length && bytes[at] === again[at]) at++;
      throw new BodyError(`body: not valid UTF-8 text (a bad byte sequence at byte ${at})`);
    }
  }
  return text;
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(decodeJsonBody(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

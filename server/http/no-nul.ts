/**
 * U+0000 in text is refused on input, everywhere: PostgreSQL cannot store it in a text column
 * (the write fails with a 500 there while SQLite keeps it), and no field of the API has a use
 * for it. One hook before validation looks at the path parameters and the parsed JSON body and
 * answers 400 naming the first field that holds one. Query strings are left to the routes: the
 * ones they read are enumerated or numeric (a map id, a version), and the others are ignored.
 */
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors';

/** Nodes looked at per request at most (bodies are already size-bounded; this bounds the walk). */
const MAX_NODES = 200_000;

function fieldName(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/**
 * The path of the first string (or object key) in `value` that contains U+0000, or null.
 * Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findNul(value: unknown, root = ''): string | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  let seen = 0;
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (++seen > MAX_NODES) return null;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return path || '(value)';
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i -= 1) stack.push([node[i], fieldName(path, i)]);
    } else if (node && typeof node === 'object') {
      const entries = Object.entries(node as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i];
        if (key.includes('\u0000')) return fieldName(path, key.replace(/\u0000/g, '\\u0000'));
        stack.push([child, fieldName(path, key)]);
      }
    }
  }
  return null;
}

export function registerNoNul(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const field = findNul(request.params) ?? findNul(request.body);
    if (field) return sendError(reply, 400, `${field}: must not contain the character U+0000`);
    return undefined;
  });
}

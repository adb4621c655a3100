/**
 * U+0000 in text is refused on input, everywhere: PostgreSQL cannot store it in a text column
 * (the write fails with a 500 there while SQLite keeps it), and no field of the API has a use
 * for it. So is text that is not valid Unicode (a lone UTF-16 surrogate, src/domain/unicode-text.ts):
 * it would be stored as U+FFFD, changed under its writer and possibly over its length bound.
 * One hook before validation looks at the path parameters and the parsed JSON body and answers
 * 400 naming the first field that holds one. Query strings are left to the routes: the
 * ones they read are enumerated or numeric (a map id, a version), and the others are ignored.
 */
import type { FastifyInstance } from 'fastify';
import { unicodeTextProblem } from '../../src/domain/unicode-text';
import { sendError } from './errors';

/** Nodes looked at per request at most (bodies are already size-bounded; this bounds the walk). */
const MAX_NODES = 200_000;

function fieldName(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** Why a text is refused (without its field), or undefined when it is not. */
type TextRule = (text: string) => string | undefined;

const NUL_PROBLEM = 'must not contain the character U+0000';
const noNul: TextRule = (text) => (text.includes('\u0000') ? NUL_PROBLEM : undefined);
/** U+0000, then lone surrogates (src/domain/unicode-text.ts): the first problem a text has. */
const inputText: TextRule = (text) => noNul(text) ?? unicodeTextProblem(text);

/** A refused key as its field name shows it: U+0000 and lone surrogates escaped (`k\\u0000`), as JSON writes them. */
function shownKey(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}

/**
 * The first string (or object key) in `value` that `rule` refuses: its path and the reason, or
 * null. Iterative, so a deeply nested body cannot overflow the stack.
 */
function findText(value: unknown, rule: TextRule, root = ''): { field: string; problem: string } | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  let seen = 0;
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (++seen > MAX_NODES) return null;
    if (typeof node === 'string') {
      const problem = rule(node);
      if (problem) return { field: path || '(value)', problem };
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i -= 1) stack.push([node[i], fieldName(path, i)]);
    } else if (node && typeof node === 'object') {
      const entries = Object.entries(node as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i];
        const problem = rule(key);
        if (problem) return { field: fieldName(path, shownKey(key)), problem };
        stack.push([child, fieldName(path, key)]);
      }
    }
  }
  return null;
}

/** The path of the first string (or object key) in `value` that contains U+0000, or null. */
export function findNul(value: unknown, root = ''): string | null {
  const found = findText(value, noNul, root);
  return found ? found.field : null;
}

/**
 * The first refused text in `value` as the 400's message, `<field>: <why>`: U+0000 or a lone
 * surrogate (text that is not valid Unicode), or null when all its text may be stored.
 */
export function inputTextProblem(value: unknown, root = ''): string | null {
  const found = findText(value, inputText, root);
  return found ? `${found.field}: ${found.problem}` : null;
}

export function registerNoNul(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const problem = inputTextProblem(request.params) ?? inputTextProblem(request.body);
    if (problem) return sendError(reply, 400, problem);
    return undefined;
  });
}

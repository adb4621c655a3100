/** Turns a zod error on a query string into one clear sentence naming the parameter. */
import type { z } from 'zod';

export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid query string';
  const name = issue.path.length > 0 ? issue.path.join('.') : 'query';
  return `query parameter "${name}" ${issue.message}`;
}

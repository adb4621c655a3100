/**
 * A zod schema built on its first use, not when its module is evaluated. Building zod v4
 * schemas is real work (every `z.object`, `z.enum` and check is an object with its own
 * set-up): the map page imports the marker, shape and pilot modules for their types and small
 * rules, and building their schemas as the page's script ran was about 35 ms of its main
 * thread per load before anything needed them (docs/PERFORMANCE.md, "Seventh session").
 */
import type { z } from 'zod';

export interface LazySchema<T extends z.ZodType> {
  safeParse(value: unknown): z.ZodSafeParseResult<z.output<T>>;
  parse(value: unknown): z.output<T>;
  /** The schema itself (built now if it was not yet), to compose into another. */
  readonly schema: T;
  /** Whether it has been built (tests). */
  readonly built: boolean;
}

export function lazySchema<T extends z.ZodType>(build: () => T): LazySchema<T> {
  let schema: T | undefined;
  const get = (): T => (schema ??= build());
  return {
    safeParse: (value) => get().safeParse(value),
    parse: (value) => get().parse(value),
    get schema() {
      return get();
    },
    get built() {
      return schema !== undefined;
    },
  };
}

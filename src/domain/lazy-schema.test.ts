import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

describe('lazySchema', () => {
  it('builds its schema once, on first use, and answers as the schema does', () => {
    const build = vi.fn(() => z.object({ n: z.number().int() }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.built).toBe(false);
    expect(schema.safeParse({ n: 1 })).toEqual({ success: true, data: { n: 1 } });
    expect(schema.safeParse({ n: 1.5 }).success).toBe(false);
    expect(schema.parse({ n: 2 })).toEqual({ n: 2 });
    expect(() => schema.parse({})).toThrow();
    expect(z.array(schema.schema).parse([{ n: 3 }])).toEqual([{ n: 3 }]);
    expect(build).toHaveBeenCalledTimes(1);
    expect(schema.built).toBe(true);
  });

  it('leaves the marker, shape and pilot schemas unbuilt when their modules are only imported (as the map page does)', async () => {
    vi.resetModules();
    const marker = await import('./marker');
    const pilot = await import('./pilot');
    await import('./shapes');
    expect(marker.markerSchema.built).toBe(false);
    expect(marker.markerImageSchema.built).toBe(false);
    expect(pilot.pilotMessageSchema.built).toBe(false);
    expect(pilot.pilotPositionSchema.built).toBe(false);
    // And they work when asked.
    expect(pilot.pilotMessageProblem({ type: 'ping' })).toBeNull();
    expect(pilot.pilotMessageSchema.built).toBe(true);
  });
});

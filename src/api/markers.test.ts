import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchCompactMarkers, listAskedAt } from './markers';

describe('compact marker list reads', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('notes when each list was asked for (before its answer came), so changes heard meanwhile go back on top', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    const before = performance.now();
    const reading = fetchCompactMarkers('customs', 'en');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answeredAfter = performance.now();
    answer(new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { etag: '"abc"' } }));
    const buffer = await reading;
    const askedAt = listAskedAt(buffer);
    expect(askedAt).toBeGreaterThanOrEqual(before);
    expect(askedAt).toBeLessThan(answeredAfter);
    expect(listAskedAt(new ArrayBuffer(3))).toBeUndefined();
  });
});

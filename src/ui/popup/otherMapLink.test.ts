import { describe, expect, it } from 'vitest';
import { linkOnMap } from './otherMapLink';

describe('linkOnMap', () => {
  it("keeps the link's query on the other map, less a pilot connection taken in already", () => {
    expect(linkOnMap('factory', 'obj=abc&quest=q-1,q-2&render=main')).toBe('/map/factory?obj=abc&quest=q-1%2Cq-2&render=main');
    expect(linkOnMap('customs', 'connection=ABCD-1234&obj=abc')).toBe('/map/customs?obj=abc');
    expect(linkOnMap('customs', '')).toBe('/map/customs');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Marker } from '../../domain/marker';
import { marker } from '../../editor/testing/fakes';
import { popup, resetPopup, startEdit } from '../../state/popup';
import { takeTheirImages } from './uploadConflict';

const A = { img: '/uploads/markers/a.png', name: 'A', desc: '' };
const B = { img: '/uploads/markers/b.png', name: 'B', desc: '' };
const mine: Marker = marker('m1', { name: 'Safe', desc: 'Old', imgs: [A, B], version: 3 });
const theirs: Marker = { ...mine, desc: 'Theirs', imgs: [B], version: 4 };

afterEach(() => resetPopup());

describe('takeTheirImages', () => {
  it('puts the typed changes on their marker, with their images; the form is based on their version', () => {
    startEdit(mine);
    popup.draft!.name = 'My safe';
    popup.draft!.imgs = [B, A];
    expect(takeTheirImages('m1', theirs)).toEqual({
      changes: [
        { field: 'desc', before: 'Old', after: 'Theirs' },
        { field: 'images', kind: 'removed', index: 1, name: 'A' },
      ],
      droppedMine: true,
    });
    expect(popup.snapshot).toEqual(theirs);
    expect(popup.draft).toEqual({ ...theirs, name: 'My safe' });
  });

  it('says nothing of the admin’s image changes where there were none', () => {
    startEdit(mine);
    expect(takeTheirImages('m1', theirs)?.droppedMine).toBe(false);
    expect(popup.draft).toEqual(theirs);
  });

  it('changes nothing without a form on that marker, or on a form based on their version or a newer one', () => {
    expect(takeTheirImages('m1', theirs)).toBeNull();
    startEdit({ ...mine, version: 4 });
    expect(takeTheirImages('m1', theirs)).toBeNull();
    expect(takeTheirImages('m2', { ...theirs, uid: 'm2' })).toBeNull();
    expect(popup.draft).toEqual({ ...mine, version: 4 });
  });
});

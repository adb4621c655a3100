import '../../i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Marker } from '../../domain/marker';
import { resetPopup, setEnlarged, setPopupPlacement } from '../../state/popup';
import { MarkerPopupFrame } from './MarkerPopupFrame';

const marker = { uid: 'm-new', map: 'customs', category: 'Markers', subCategory: 'Marker', level: 1, geometry: { x: 450, y: 150 }, name: 'New', desc: '', imgs: [], name_l10n: {}, desc_l10n: {}, itemsUid: [] } as Marker;
const wrapper = () => document.querySelector('.marker-popup');

afterEach(() => {
  setEnlarged(false);
  resetPopup();
});

describe('MarkerPopupFrame', () => {
  it('places the edit form where the wiring says, as the view', async () => {
    render(
      <MarkerPopupFrame marker={marker} onClose={() => undefined} className="marker-popup--edit">
        <form aria-label="Edit marker" />
      </MarkerPopupFrame>,
    );
    await screen.findByRole('dialog', { name: 'New' });
    expect(wrapper()?.getAttribute('data-placement')).toBe('bottom');
    act(() => setPopupPlacement('right'));
    await waitFor(() => expect(wrapper()).toHaveClass('marker-popup--edit', 'marker-popup--right'));
    expect(wrapper()?.getAttribute('data-placement')).toBe('right');
    // Enlarged, it keeps its own place.
    act(() => setEnlarged(true));
    await waitFor(() => expect(wrapper()).toHaveClass('marker-popup--xl'));
    expect(wrapper()).not.toHaveClass('marker-popup--right');
    expect(wrapper()?.hasAttribute('data-placement')).toBe(false);
  });
});

describe('MarkerPopupFrame scroll', () => {
  const body = () => document.querySelector<HTMLElement>('.popup__body')!;

  it('back in view mode after Save or Cancel, the popup shows its top, not where the form was scrolled to', async () => {
    const frame = (mode: 'view' | 'edit', text: string) => (
      <MarkerPopupFrame marker={marker} onClose={() => undefined} mode={mode}>
        <p>{text}</p>
      </MarkerPopupFrame>
    );
    const { rerender } = render(frame('edit', 'form'));
    await screen.findByRole('dialog', { name: 'New' });
    body().scrollTop = 400;
    // Another render of the same mode (typing, a status line) keeps the scroll.
    rerender(frame('edit', 'form, typed'));
    expect(body().scrollTop).toBe(400);
    rerender(frame('view', 'view'));
    expect(body().scrollTop).toBe(0);
  });
});

import { useEffect, type RefObject } from 'react';

/** Why a drop-down was dismissed: Escape (the keyboard user expects the focus back on its button) or a press outside. */
export type DismissReason = 'escape' | 'outside';

/**
 * While `open`, a press outside `inside` (an element, or a ref to one) or the Escape key calls
 * `dismiss` (a drop-down menu's usual manners), told which. `dismiss` should be stable
 * (useCallback). On Escape, a menu whose items hide should put the focus back on the button that
 * opened it when the focus was in the menu (else it falls to the page's body): the caller does
 * that, as only it knows its button.
 */
export function useDismiss(open: boolean, inside: RefObject<HTMLElement | null> | HTMLElement | null, dismiss: (reason: DismissReason) => void): void {
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const element = inside && 'current' in inside ? inside.current : inside;
      if (!element?.contains(event.target as Node)) dismiss('outside');
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss('escape');
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, inside, dismiss]);
}

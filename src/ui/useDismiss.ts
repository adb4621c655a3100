import { useEffect, type RefObject } from 'react';

/**
 * While `open`, a press outside `inside` (an element, or a ref to one) or the Escape key calls
 * `dismiss` (a drop-down menu's usual manners). `dismiss` should be stable (useCallback).
 */
export function useDismiss(open: boolean, inside: RefObject<HTMLElement | null> | HTMLElement | null, dismiss: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const element = inside && 'current' in inside ? inside.current : inside;
      if (!element?.contains(event.target as Node)) dismiss();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, inside, dismiss]);
}

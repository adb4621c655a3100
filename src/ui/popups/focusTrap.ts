import type { KeyboardEvent } from 'react';

/** What Tab can land on inside a dialog (disabled and hidden controls left out). */
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function tabbables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => !el.closest('[hidden], [inert]'));
}

/**
 * A modal dialog's Tab and Shift+Tab: from its last control back to its first and the other
 * way round, so keyboard focus never wanders to the page behind the backdrop (WAI-ARIA's modal
 * dialog pattern). From the dialog itself (focused on open), Shift+Tab goes to the last control.
 */
export function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const dialog = event.currentTarget;
  const inside = tabbables(dialog);
  if (inside.length === 0) {
    event.preventDefault();
    return;
  }
  const first = inside[0];
  const last = inside[inside.length - 1];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

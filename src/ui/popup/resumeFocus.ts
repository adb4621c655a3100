/**
 * Where the keyboard goes when the dock's "Back to them" (ui/admin/SetAsideNotice.tsx) brings a
 * set-aside edit back (state/popup.ts `resumeSetAside`): into the form, on the field the admin
 * last typed in (remembered while its form was open on this page), else on its first field
 * (after a reload nothing is remembered). The button leaves the page as the form comes back, so
 * without this the focus fell to the page's `<body>`, far from the form in the Tab order.
 *
 * The marker popup (MarkerPopup.tsx) notes the typing (`noteTypedField`) and, once the form is
 * in the page, calls `focusResumedForm` after every other effect of the popup: a popup that
 * opens with the form (the work of a marker whose popup was closed) focuses its dialog first.
 */

/** The form's fields, in page order (its buttons left out: a conflict's buttons come and go). */
const FIELDS = 'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled])';

/** The marker whose form "Back to them" is bringing back (null: none asked for). */
let requested: string | null = null;
/** The field typed in last: its marker and its place among the form's fields. */
let typed: { uid: string; index: number } | null = null;

function fieldsOf(form: HTMLElement): HTMLElement[] {
  return [...form.querySelectorAll<HTMLElement>(FIELDS)];
}

/** "Back to them" for `uid`'s set-aside work: its form takes the focus as it shows. */
export function requestResumeFocus(uid: string): void {
  requested = uid;
}

/** Typing in `uid`'s edit form (an `input` event from `target`, in `form`): that field is remembered. */
export function noteTypedField(uid: string, form: HTMLElement, target: EventTarget | null): void {
  if (!(target instanceof HTMLElement)) return;
  const index = fieldsOf(form).indexOf(target);
  if (index >= 0) typed = { uid, index };
}

/**
 * `uid`'s edit form is in the page: where "Back to them" asked for it, the focus goes to the
 * field typed in last, else the first. Answers whether it moved the focus. Any form showing
 * ends the request (one for another marker never reached its form).
 */
export function focusResumedForm(uid: string, form: HTMLElement | null): boolean {
  const asked = requested === uid;
  requested = null;
  if (!asked || !form) return false;
  const fields = fieldsOf(form);
  const last = typed?.uid === uid ? fields[typed.index] : undefined;
  const target = last ?? fields[0];
  if (!target) return false;
  target.focus({ preventScroll: true });
  // The field typed in last may sit far down the form: shown, as the browser would on Tab.
  if (last) target.scrollIntoView?.({ block: 'nearest' });
  return form.ownerDocument.activeElement === target;
}

/** Forgets both (tests; a page that is left). */
export function forgetResumeFocus(): void {
  requested = null;
  typed = null;
}

/**
 * The shared popup frame: a dialog with a title bar, a "Close" button and Escape to close;
 * with a backdrop it is modal (aria-modal, Tab kept inside: focusTrap.ts).
 * Content is whatever the caller renders inside. Used by the help popup, the marker popup,
 * the quest-limit notice and the pro popups.
 */
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { keepTabInside } from './focusTrap';
import './popup.css';

export interface PopupProps {
  /** Shown in the title bar and used as the dialog's accessible name. */
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** CSS max width in pixels (default 560). */
  maxWidth?: number;
  /** Extra class on the dialog (e.g. an enlarged variant). */
  className?: string;
  /** Buttons shown in the title bar before "Close". */
  actions?: ReactNode;
  /** Dim the page behind and close on a click outside (default true). */
  backdrop?: boolean;
}

/** Open popups, oldest first. */
const openPopups: Array<{ close: () => void }> = [];

export function Popup({ title, onClose, children, maxWidth = 560, className, actions, backdrop = true }: PopupProps) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // A layout effect: Escape works from the moment the popup is in the page, not after the
  // browser's next paint (a key pressed as the popup appeared was lost on a busy page).
  useLayoutEffect(() => {
    // Escape closes only the popup opened last.
    const entry = { close: () => closeRef.current() };
    openPopups.push(entry);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || openPopups[openPopups.length - 1] !== entry) return;
      event.preventDefault();
      entry.close();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      openPopups.splice(openPopups.indexOf(entry), 1);
    };
  }, []);

  useEffect(() => {
    // Move focus into the dialog so keyboard users land on it; give it back on close, where the
    // focus was in it (gone with it: the page's body) — not where the user has taken it since: a
    // marker popup closed by the tools panel's Undo leaves the focus on Undo, not on the map.
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const box = dialogRef.current;
    box?.focus({ preventScroll: true });
    return () => {
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected || !!box?.contains(active);
      if (lost) previous?.focus({ preventScroll: true });
    };
  }, []);

  const dialog = (
    <div
      ref={dialogRef}
      role="dialog"
      aria-label={title}
      aria-modal={backdrop || undefined}
      tabIndex={-1}
      className={['popup', className].filter(Boolean).join(' ')}
      style={{ maxWidth }}
      onMouseDown={(event) => event.stopPropagation()}
      // Modal (with a backdrop): Tab stays inside. The marker popup has none and lets Tab go on to the page.
      onKeyDown={backdrop ? keepTabInside : undefined}
    >
      <div className="popup__bar">
        <h2 className="popup__title">
          {title}
        </h2>
        <div className="popup__actions">
          {actions}
          <button type="button" className="popup__close" onClick={onClose}>
            <span className="popup__close-icon" aria-hidden="true">
              ×
            </span>
            {t('popup.close')}
          </button>
        </div>
      </div>
      <div className="popup__body">{children}</div>
    </div>
  );

  if (!backdrop) return <div className="popup-anchor">{dialog}</div>;
  return (
    <div className="popup-backdrop" onMouseDown={onClose}>
      {dialog}
    </div>
  );
}

/**
 * The marker popup's frame, shared by the view and the edit mode: the dialog (titled with the
 * marker's name in the current language), the Enlarge / Shrink button (remembered in
 * localStorage `map_popup`), and the pointer tracking that stops wheel zoom over the popup.
 * At normal size it sits where it leaves its marker free (`popup.placement`, the wiring's
 * choice: in view mode from the height measured here, in edit mode from the tallest the form may
 * grow to, so it stays put while the admin types); enlarged, it keeps its own place (it takes
 * most of the window wherever it goes).
 * Not modal, it sits in the Tab order right after what opened it (popupFocus.ts).
 */
import { useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Marker } from '../../domain/marker';
import { popupTitle } from './popupTitle';
import { isLanguage } from '../../i18n';
import { popup, setPointerOverPopup, setPopupBoxHeight, toggleEnlarged } from '../../state/popup';
import { Popup } from '../popups/Popup';
import { notePopupOpened, popupClosingWithFocus, popupTabKey } from './popupFocus';
import './popup.css';

export interface MarkerPopupFrameProps {
  marker: Marker;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the wrapper (e.g. the edit mode's). */
  className?: string;
  /** Which of the popup's modes shows ('view' or 'edit'): a change starts the new one at its top. */
  mode?: string;
}

/** Tells the wiring the dialog's height as it changes (it decides whether the popup would cover its marker). */
function useMeasuredHeight(wrapper: RefObject<HTMLDivElement | null>): void {
  useLayoutEffect(() => {
    const dialog = wrapper.current?.querySelector('.popup');
    if (!dialog) return;
    const report = () => setPopupBoxHeight(Math.round(dialog.getBoundingClientRect().height));
    report();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(report);
    observer.observe(dialog);
    return () => observer.disconnect();
  }, [wrapper]);
}

/**
 * The dialog's body scrolls (a long description, the edit form): a change of mode or marker
 * starts at the top, not where the other one was left (Save at the foot of a long form would
 * open the view at its end). Before the effects that put the focus in (Edit, the form's first
 * field), which keep the scroll (preventScroll) where they move the focus.
 */
function useTopOnChange(wrapper: RefObject<HTMLDivElement | null>, key: string): void {
  const last = useRef(key);
  useLayoutEffect(() => {
    if (last.current === key) return;
    last.current = key;
    const body = wrapper.current?.querySelector('.popup__body');
    if (body) body.scrollTop = 0;
  }, [wrapper, key]);
}

export function MarkerPopupFrame({ marker, onClose, children, className, mode = 'view' }: MarkerPopupFrameProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { enlarged, placement } = useSnapshot(popup);
  const wrapper = useRef<HTMLDivElement>(null);

  useEffect(() => () => setPointerOverPopup(false), []);
  useMeasuredHeight(wrapper);
  useTopOnChange(wrapper, `${marker.uid} ${mode}`);
  // Closed with the focus in it: the focus goes back where it came from (popupFocus.ts).
  useLayoutEffect(() => {
    const root = wrapper.current;
    return () => {
      if (root) popupClosingWithFocus(root);
    };
  }, []);
  // Before the focus moves into the popup (Popup's effect, Find a marker): what has it now opened this marker.
  useLayoutEffect(() => {
    if (wrapper.current) notePopupOpened(wrapper.current);
  }, [marker.uid]);

  const name = popupTitle(t, lang, marker);
  const sizeButton = (
    <button type="button" className="marker-popup__size" onClick={toggleEnlarged} aria-pressed={enlarged}>
      {enlarged ? t('markerPopup.shrink') : t('markerPopup.enlarge')}
    </button>
  );
  const placedClass = !enlarged && placement !== 'bottom' ? `marker-popup--${placement}` : '';

  return (
    <div
      ref={wrapper}
      className={['marker-popup', enlarged ? 'marker-popup--xl' : '', placedClass, className ?? ''].filter(Boolean).join(' ')}
      data-uid={marker.uid}
      data-placement={enlarged ? undefined : placement}
      onPointerEnter={() => setPointerOverPopup(true)}
      onPointerLeave={() => setPointerOverPopup(false)}
      onKeyDown={popupTabKey}
    >
      <Popup title={name} onClose={onClose} backdrop={false} maxWidth={enlarged ? 960 : 420} actions={sizeButton} className="marker-popup__dialog">
        {children}
      </Popup>
    </div>
  );
}

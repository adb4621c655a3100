/**
 * The marker popup's frame, shared by the view and the edit mode: the dialog (titled with the
 * marker's name in the current language), the Enlarge / Shrink button (remembered in
 * localStorage `map_popup`), and the pointer tracking that stops wheel zoom over the popup.
 */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { localized, type Marker } from '../../domain/marker';
import { isLanguage } from '../../i18n';
import { popup, setPointerOverPopup, toggleEnlarged } from '../../state/popup';
import { Popup } from '../popups/Popup';
import './popup.css';

export interface MarkerPopupFrameProps {
  marker: Marker;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the wrapper (e.g. the edit mode's). */
  className?: string;
}

export function MarkerPopupFrame({ marker, onClose, children, className }: MarkerPopupFrameProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const { enlarged } = useSnapshot(popup);

  useEffect(() => () => setPointerOverPopup(false), []);

  const name = localized(marker, 'name', lang) || marker.subCategory;
  const sizeButton = (
    <button type="button" className="marker-popup__size" onClick={toggleEnlarged} aria-pressed={enlarged}>
      {enlarged ? t('markerPopup.shrink') : t('markerPopup.enlarge')}
    </button>
  );

  return (
    <div
      className={['marker-popup', enlarged ? 'marker-popup--xl' : '', className ?? ''].filter(Boolean).join(' ')}
      data-uid={marker.uid}
      onPointerEnter={() => setPointerOverPopup(true)}
      onPointerLeave={() => setPointerOverPopup(false)}
    >
      <Popup title={name} onClose={onClose} backdrop={false} maxWidth={enlarged ? 960 : 420} actions={sizeButton} className="marker-popup__dialog">
        {children}
      </Popup>
    </div>
  );
}

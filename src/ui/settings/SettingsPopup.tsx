/**
 * The settings popup (pro, spec §1, §6): marker size, labels, own quest progress, the look
 * arrow and the language. On a touch screen the label captions speak of the tapped marker, not the
 * hovered one (useCanHover). Every change applies at once through updateSettings and is kept in
 * `map:settings`; "Reset" asks `Confirm reset?` first. Only a pro user has it: if the session
 * stops being pro while it is open (signed out, subscription ended), it closes itself.
 */
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Language } from '../../domain/marker';
import { can } from '../../domain/roles';
import { LABEL_MODES, MARKER_SIZE_RANGE, RESET_CONFIRMATION, type LabelMode } from '../../domain/settings';
import { UI_LANGUAGES } from '../../i18n';
import { session } from '../../state/session';
import { resetSettings, settings, updateSettings } from '../../state/settings';
import { Popup } from '../popups/Popup';
// Each language named in itself, as language pickers do; the same text in every UI language.
import { LANGUAGE_NAMES } from '../topbar/LanguageSwitch';
import { useCanHover } from './useCanHover';
import './settings.css';

export function SettingsPopup({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { user } = useSnapshot(session);
  const current = useSnapshot(settings);
  const sizeId = useId();
  const labelsId = useId();
  const progressHintId = useId();
  const arrowHintId = useId();
  const languageId = useId();
  const allowed = can(user, 'settings');
  const canHover = useCanHover();

  useEffect(() => {
    if (!allowed) onClose();
  }, [allowed, onClose]);
  if (!allowed) return null;

  const labelText: Record<LabelMode, string> = canHover
    ? { auto: t('settings.labelsAuto'), all: t('settings.labelsAll'), hover: t('settings.labelsHover') }
    : { auto: t('settings.labelsAutoTouch'), all: t('settings.labelsAll'), hover: t('settings.labelsHoverTouch') };
  const size = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(current.markerSize);

  const onReset = () => {
    // The spec's "Confirm reset?" in English; the page's language otherwise.
    if (window.confirm(t('settings.resetConfirm', { defaultValue: RESET_CONFIRMATION }))) resetSettings();
  };

  return (
    <Popup title={t('settings.title')} onClose={onClose} maxWidth={400} className="settings-popup">
      <div className="settings-popup__field">
        <label htmlFor={sizeId} className="settings-popup__label">
          {t('settings.markerSize')}
        </label>
        <div className="settings-popup__range">
          <input
            id={sizeId}
            type="range"
            min={MARKER_SIZE_RANGE.min}
            max={MARKER_SIZE_RANGE.max}
            step={MARKER_SIZE_RANGE.step}
            value={current.markerSize}
            onChange={(event) => updateSettings({ markerSize: Number(event.target.value) })}
          />
          <output htmlFor={sizeId} className="settings-popup__value">
            {t('settings.markerSizeValue', { value: size })}
          </output>
        </div>
      </div>

      <fieldset className="settings-popup__field settings-popup__group" role="radiogroup" aria-labelledby={labelsId}>
        <legend id={labelsId} className="settings-popup__label">
          {t('settings.labels')}
        </legend>
        {LABEL_MODES.map((mode) => (
          <label key={mode} className="settings-popup__choice">
            <input
              type="radio"
              name={labelsId}
              value={mode}
              checked={current.labels === mode}
              onChange={() => updateSettings({ labels: mode })}
            />
            <span>{labelText[mode]}</span>
          </label>
        ))}
      </fieldset>

      <div className="settings-popup__field">
        <label className="settings-popup__choice">
          <input
            type="checkbox"
            checked={current.ownProgress}
            aria-describedby={progressHintId}
            onChange={(event) => updateSettings({ ownProgress: event.target.checked })}
          />
          <span>{t('settings.ownProgress')}</span>
        </label>
        <p id={progressHintId} className="settings-popup__hint">
          {t('settings.ownProgressHint')}
        </p>
      </div>

      <div className="settings-popup__field">
        <label className="settings-popup__choice">
          <input
            type="checkbox"
            checked={current.lookArrow}
            aria-describedby={arrowHintId}
            onChange={(event) => updateSettings({ lookArrow: event.target.checked })}
          />
          <span>{t('settings.lookArrow')}</span>
        </label>
        <p id={arrowHintId} className="settings-popup__hint">
          {t('settings.lookArrowHint')}
        </p>
      </div>

      <div className="settings-popup__field settings-popup__field--inline">
        <label htmlFor={languageId} className="settings-popup__label">
          {t('settings.language')}
        </label>
        <select
          id={languageId}
          className="settings-popup__select"
          value={current.language}
          onChange={(event) => updateSettings({ language: event.target.value as Language })}
        >
          {UI_LANGUAGES.map((lang) => (
            <option key={lang} value={lang} lang={lang}>
              {LANGUAGE_NAMES[lang]}
            </option>
          ))}
        </select>
      </div>

      <p className="settings-popup__note">{t('settings.note')}</p>
      <div className="settings-popup__actions">
        <button type="button" className="button button--ghost" onClick={onReset}>
          {t('settings.reset')}
        </button>
      </div>
    </Popup>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Language } from '../../domain/marker';
import { isLanguage } from '../../i18n';
import { Popup } from './Popup';
import './help-popup.css';

/** The four position-hint images, in the order of the steps. */
export const POS_HINT_FILES = ['1-screenshot-key.svg', '2-screenshots-folder.svg', '3-copy-file-name.svg', '4-paste-in-raidmap.svg'] as const;

/** CDN base for static images (`VITE_CDN_BASE`, default '' = this site). */
export const CDN_BASE: string = (import.meta.env.VITE_CDN_BASE as string | undefined) ?? '';

/**
 * The pictures show the game's and Windows' own UI with text in them, so each UI language gets
 * its own drawing under `pos-hints/` (same file names): English in the folder itself, Russian in `ru/`.
 */
export const POS_HINT_DIRS: Readonly<Record<Language, string>> = { en: '', ru: 'ru/' };

/**
 * URL of a position-hint image under `public-images/pos-hints/` on the CDN base, drawn in
 * `language` (Russian: `pos-hints/ru/`).
 */
export function posHintUrl(file: string, base: string = CDN_BASE, language: Language = 'en'): string {
  return `${base.replace(/\/+$/, '')}/public-images/pos-hints/${POS_HINT_DIRS[language]}${file}`;
}

/** The where-am-I help popup: how to get the screenshot file name, in four pictures, and the live feed. */
export function HelpPopup({ onClose, cdnBase = CDN_BASE }: { onClose: () => void; cdnBase?: string }) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';
  const steps = [t('help.step1'), t('help.step2'), t('help.step3'), t('help.step4')];
  const alts = [t('help.image1'), t('help.image2'), t('help.image3'), t('help.image4')];
  return (
    <Popup title={t('help.title')} onClose={onClose} maxWidth={760} className="help-popup">
      <p className="help-popup__intro">{t('help.intro')}</p>
      <ol className="help-popup__steps">
        {POS_HINT_FILES.map((file, i) => (
          <li key={file} className="help-popup__step">
            <figure>
              <img src={posHintUrl(file, cdnBase, lang)} alt={alts[i]} width={480} height={270} loading="eager" decoding="async" />
              <figcaption>{steps[i]}</figcaption>
            </figure>
          </li>
        ))}
      </ol>
      <p className="help-popup__pilot">
        {t('help.pilotText')}{' '}
        <Link to="/pilot" onClick={onClose}>
          {t('help.pilotLink')}
        </Link>
      </p>
    </Popup>
  );
}

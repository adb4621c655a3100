import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MapList } from '../MapList';
import { LanguageSwitch } from '../topbar/LanguageSwitch';
import { useDocumentTitle } from '../useDocumentTitle';

/** Shown by the router when a page throws while rendering: never a blank screen. */
export function ErrorPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('title.error'));
  return (
    <main className="page">
      <header className="page__header">
        {/* EN / RU as on the other pages; outside the alert, which says only what went wrong. */}
        <div className="page__header-bar">
          <Link to="/" className="brand">
            {t('site.name')}
          </Link>
          <div className="page__header-actions">
            <LanguageSwitch />
          </div>
        </div>
        <div role="alert">
          <h1>{t('error.heading')}</h1>
          <p>{t('error.text')}</p>
        </div>
      </header>
      <MapList />
    </main>
  );
}

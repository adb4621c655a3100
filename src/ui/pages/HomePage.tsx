import { useTranslation } from 'react-i18next';
import { AccountMenu } from '../account/AccountMenu';
import { MapList } from '../MapList';
import { LanguageSwitch } from '../topbar/LanguageSwitch';
import { useDocumentTitle } from '../useDocumentTitle';

export function HomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('title.home'));
  return (
    <main className="page">
      <header className="page__header">
        <div className="page__header-bar">
          <h1 className="brand">{t('site.name')}</h1>
          {/* The language is chosen here too: a Russian reader should not need a map page to switch. */}
          <div className="page__header-actions">
            <LanguageSwitch />
            <AccountMenu />
          </div>
        </div>
        <p className="page__tagline">{t('site.tagline')}</p>
      </header>
      <section aria-labelledby="maps-heading">
        <h2 id="maps-heading">{t('home.heading')}</h2>
        <MapList detailed />
      </section>
    </main>
  );
}

import { useTranslation } from 'react-i18next';
import { MapList } from '../MapList';
import { PageHeaderBar } from './PageHeaderBar';
import { useDocumentTitle } from '../useDocumentTitle';

/** Shown by the router when a page throws while rendering: never a blank screen. */
export function ErrorPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('title.error'));
  return (
    <main className="page">
      <header className="page__header">
        {/* Outside the alert, which says only what went wrong. */}
        <PageHeaderBar />
        <div role="alert">
          <h1>{t('error.heading')}</h1>
          <p>{t('error.text')}</p>
        </div>
      </header>
      <MapList />
    </main>
  );
}

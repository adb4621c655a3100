import { useTranslation } from 'react-i18next';

/** What shows while a page's script loads on its first visit (the lazy routes of routes.tsx). */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <main className="page page--loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {t('site.loadingPage')}
    </main>
  );
}

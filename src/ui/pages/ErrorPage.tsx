import { useTranslation } from 'react-i18next';
import { MapList } from '../MapList';
import { useDocumentTitle } from '../useDocumentTitle';

/** Shown by the router when a page throws while rendering: never a blank screen. */
export function ErrorPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('title.error'));
  return (
    <main className="page" role="alert">
      <h1>{t('error.heading')}</h1>
      <p>{t('error.text')}</p>
      <MapList />
    </main>
  );
}

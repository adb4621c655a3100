import { useTranslation } from 'react-i18next';
import { MapList } from '../MapList';
import { PageHeaderBar } from './PageHeaderBar';
import { useDocumentTitle } from '../useDocumentTitle';

/** Unknown route or unknown map id: says so and links every map. */
export function NotFoundPage({ unknownMap }: { unknownMap?: string }) {
  const { t } = useTranslation();
  useDocumentTitle(t('title.notFound'));
  return (
    <main className="page">
      <header className="page__header">
        <PageHeaderBar />
        <h1>{t('notFound.heading')}</h1>
        <p>{unknownMap !== undefined ? t('notFound.unknownMap', { mapId: unknownMap }) : t('notFound.unknownPage')}</p>
      </header>
      <MapList />
    </main>
  );
}

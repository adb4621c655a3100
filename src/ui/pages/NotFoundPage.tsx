import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MapList } from '../MapList';
import { useDocumentTitle } from '../useDocumentTitle';

/** Unknown route or unknown map id: says so and links every map. */
export function NotFoundPage({ unknownMap }: { unknownMap?: string }) {
  const { t } = useTranslation();
  useDocumentTitle(t('title.notFound'));
  return (
    <main className="page">
      <header className="page__header">
        <Link to="/" className="brand">{t('site.name')}</Link>
        <h1>{t('notFound.heading')}</h1>
        <p>{unknownMap !== undefined ? t('notFound.unknownMap', { mapId: unknownMap }) : t('notFound.unknownPage')}</p>
      </header>
      <MapList />
    </main>
  );
}

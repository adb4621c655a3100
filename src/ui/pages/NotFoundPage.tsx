import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MapList } from '../MapList';
import { LanguageSwitch } from '../topbar/LanguageSwitch';
import { useDocumentTitle } from '../useDocumentTitle';

/** Unknown route or unknown map id: says so and links every map. */
export function NotFoundPage({ unknownMap }: { unknownMap?: string }) {
  const { t } = useTranslation();
  useDocumentTitle(t('title.notFound'));
  return (
    <main className="page">
      <header className="page__header">
        {/* EN / RU as on the home, quests and pilot pages: a mistyped link is no reason to lose the switch. */}
        <div className="page__header-bar">
          <Link to="/" className="brand">
            {t('site.name')}
          </Link>
          <div className="page__header-actions">
            <LanguageSwitch />
          </div>
        </div>
        <h1>{t('notFound.heading')}</h1>
        <p>{unknownMap !== undefined ? t('notFound.unknownMap', { mapId: unknownMap }) : t('notFound.unknownPage')}</p>
      </header>
      <MapList />
    </main>
  );
}

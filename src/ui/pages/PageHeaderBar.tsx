import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../topbar/LanguageSwitch';

/**
 * The bar atop a page that is not the home page: the site's name linking home, and EN / RU (a
 * page reached by a mistyped link, or a page that failed, is no reason to lose the switch).
 */
export function PageHeaderBar() {
  const { t } = useTranslation();
  return (
    <div className="page__header-bar">
      <Link to="/" className="brand">
        {t('site.name')}
      </Link>
      <div className="page__header-actions">
        <LanguageSwitch />
      </div>
    </div>
  );
}

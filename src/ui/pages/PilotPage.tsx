import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../useDocumentTitle';

const EXAMPLE_NAME = '2024-05-01[12-34]_123.45, 6.78, -90.12_0.12345, -0.54321, 0.11111, 0.82345_12.34 (0).png';

/** Route `/pilot`: what the live position feed is, and the screenshot method meanwhile. */
export function PilotPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pilot.title'));
  return (
    <main className="page pilot-page">
      <header className="page__header">
        <Link to="/" className="brand">
          {t('site.name')}
        </Link>
        <h1>{t('pilot.heading')}</h1>
      </header>
      <p>{t('pilot.what')}</p>
      <p>
        <strong>{t('pilot.when')}</strong>
      </p>
      <section aria-labelledby="pilot-meanwhile">
        <h2 id="pilot-meanwhile">{t('pilot.meanwhileHeading')}</h2>
        <p style={{ overflowWrap: 'anywhere' }}>{t('pilot.meanwhile', { example: EXAMPLE_NAME })}</p>
      </section>
      <p>
        <Link to="/" className="button">
          {t('pilot.back')}
        </Link>
      </p>
    </main>
  );
}

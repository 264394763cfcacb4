import { Link } from 'react-router';
import { useTranslations } from 'use-intl';
import { PageHeading } from './page-heading.tsx';

export function NotFound() {
  const t = useTranslations('common.notFound');
  return (
    <section className="panel panel--narrow" aria-labelledby="not-found-heading">
      <PageHeading id="not-found-heading">{t('heading')}</PageHeading>
      <p>{t('text')}</p>
      <Link to="/" className="btn btn-primary">
        {t('home')}
      </Link>
    </section>
  );
}

import { useTranslations } from 'use-intl';
import { PageHeading } from '../../ui/page-heading.tsx';
import { StartOverActions } from '../ticket/start-over.tsx';

/** A share link whose share was stopped (the server answers 410). */
export function NoLongerShared({ onStartOver }: { onStartOver: () => void }) {
  const t = useTranslations();
  return (
    <section className="panel panel--narrow" aria-labelledby="not-shared-heading">
      <PageHeading id="not-shared-heading">{t('errors.PASS_NO_LONGER_SHARED')}</PageHeading>
      <p>{t('pass.noLongerShared.text')}</p>
      <StartOverActions variant="primary" onStartOver={onStartOver} />
    </section>
  );
}

import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { useTranslations } from 'use-intl';
import { PageHeading } from '../../ui/page-heading.tsx';
import { useLoyaltyMember } from './loyalty-member.ts';
import { CLAIM_KINDS } from './loyalty-texts.ts';
import { emailStrong, MemberSignIn } from './member-sign-in.tsx';
import './loyalty.css';

/** /loyalty/: the member's email first, then the three kinds of purchase to claim. */
export function LoyaltyHome() {
  const { member, logout } = useLoyaltyMember();
  const t = useTranslations('loyalty');
  if (!member) return <MemberSignIn />;
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-home-heading">
      <PageHeading id="loyalty-home-heading">{t('heading')}</PageHeading>
      <p className="panel__intro">{t.rich('home.intro', { email: member.email, strong: emailStrong })}</p>
      <nav aria-label={t('home.choices')} className="loyalty-choices">
        {CLAIM_KINDS.map((kind) => (
          <Link key={kind} to={`/loyalty/${kind}`} className="btn btn-primary btn-lg">
            {t(`claims.${kind}.title`)}
          </Link>
        ))}
      </nav>
      <p className="mt-4 mb-2">
        <Link to="/loyalty/statement">{t('home.statement')}</Link>
      </p>
      <p className="mb-2">
        <Link to="/loyalty/passes">{t('home.passes')}</Link>
      </p>
      <Button variant="outline-secondary" onClick={logout}>
        {t('home.logOut')}
      </Button>
    </section>
  );
}

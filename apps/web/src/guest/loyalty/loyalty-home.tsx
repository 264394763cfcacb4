import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { PageHeading } from '../../ui/page-heading.tsx';
import type { ClaimKind } from './loyalty-api.ts';
import { useLoyaltyMember } from './loyalty-member.ts';
import { CLAIMS } from './loyalty-texts.ts';
import { MemberSignIn } from './member-sign-in.tsx';
import './loyalty.css';

/** /loyalty/: the member's email first, then the three kinds of purchase to claim. */
export function LoyaltyHome() {
  const { member, logout } = useLoyaltyMember();
  if (!member) return <MemberSignIn />;
  return (
    <section className="panel panel--narrow" aria-labelledby="loyalty-home-heading">
      <PageHeading id="loyalty-home-heading">Brownie Points</PageHeading>
      <p className="panel__intro">
        Signed in as <strong className="text-break">{member.email}</strong>. What would you like to add?
      </p>
      <nav aria-label="Purchases to add" className="loyalty-choices">
        {(Object.keys(CLAIMS) as ClaimKind[]).map((kind) => (
          <Link key={kind} to={`/loyalty/${kind}`} className="btn btn-primary btn-lg">
            {CLAIMS[kind].title}
          </Link>
        ))}
      </nav>
      <p className="mt-4 mb-2">
        <Link to="/loyalty/statement">My points: balance, history and rewards</Link>
      </p>
      <p className="mb-2">
        <Link to="/loyalty/passes">Add a ticket or pass to your digital wallet</Link>
      </p>
      <Button variant="outline-secondary" onClick={logout}>
        Log Out
      </Button>
    </section>
  );
}

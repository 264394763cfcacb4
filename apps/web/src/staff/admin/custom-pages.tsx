// Tabs whose declaration names a page of its own (`page`): the name maps to its component here.
import type { ResourceDeclaration } from '@boardwalk/contract/staff-resources';
import type { StaffUser } from '../auth/staff-session.ts';
import { DeliveriesPage } from '../deliveries/deliveries-page.tsx';
import { LoyaltyPage } from '../loyalty/loyalty-page.tsx';
import { WristbandsPage } from '../wristbands/wristbands-page.tsx';

type PageName = NonNullable<ResourceDeclaration['page']>;
interface PageProps {
  resource: ResourceDeclaration;
  user: StaffUser;
}

const pages: Record<PageName, (props: PageProps) => React.ReactNode> = {
  deliveries: DeliveriesPage,
  wristbands: WristbandsPage,
};

export function CustomPage({ page, ...props }: PageProps & { page: PageName }) {
  const Page = pages[page];
  return <Page {...props} />;
}

/** The Loyalty tab (LOYALTY_TAB): a page with no list behind it. */
export function LoyaltyTabPage({ user }: { user: StaffUser }) {
  return <LoyaltyPage user={user} />;
}

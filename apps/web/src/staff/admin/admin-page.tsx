// The admin area: a tab for each declaration the member may see (a table's `<Tab> List`
// permission, a page's own), in the declared order; the chosen tab is in the address (?tab=key).
// A tab that names a page shows the component `pages` maps its name to (staff-routes.tsx).
import { createElement, useEffect } from 'react';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { Navigate, useSearchParams } from 'react-router';
import { tabs, tabShownBy, type StaffPageName } from '@boardwalk/contract/staff-resources';
import { hasPermission, isAdmin, useStaffUser, type StaffUser } from '../auth/staff-session.ts';
import { ResourceList } from '../resources/resource-list.tsx';
import { StaffNavbar } from './staff-navbar.tsx';

export type StaffPages = Record<StaffPageName, (props: { user: StaffUser }) => React.ReactNode>;

export function AdminPage({ pages }: { pages: StaffPages }) {
  const user = useStaffUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const shown = tabs.filter((tab) => hasPermission(user, tabShownBy(tab)));
  const requested = searchParams.get('tab');
  const active = shown.find((t) => t.key === requested) ?? shown[0];

  useEffect(() => {
    document.title = active ? `${active.title} | Admin` : 'Admin';
  }, [active]);

  if (!user || !isAdmin(user)) return <Navigate to="/login" replace />;

  return (
    <div className="staff-page">
      <a className="visually-hidden-focusable skip-link" href="#main">
        Skip to content
      </a>
      <header>
        <StaffNavbar user={user} />
      </header>
      <main id="main" className="container-fluid py-3 staff-main" tabIndex={-1}>
        <h1 className="visually-hidden">Admin</h1>
        {active ? (
          <Tabs
            id="staff-tabs"
            activeKey={active.key}
            onSelect={(key) => key && setSearchParams({ tab: key }, { replace: true })}
            className="staff-tabs mb-3"
            mountOnEnter
            unmountOnExit
          >
            {shown.map((tab) => (
              <Tab key={tab.key} eventKey={tab.key} title={tab.title}>
                {tab.page ? createElement(pages[tab.page], { user }) : <ResourceList resource={tab} user={user} />}
              </Tab>
            ))}
          </Tabs>
        ) : (
          <p>You do not hold the list permission of any tab.</p>
        )}
      </main>
    </div>
  );
}

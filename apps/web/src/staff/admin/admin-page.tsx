// The admin area: a tab for each declaration whose `<Tab> List` permission the member holds;
// the chosen tab is in the address (?tab=key).
import { useEffect } from 'react';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { Navigate, useSearchParams } from 'react-router';
import { LOYALTY_TAB, resources, tabPermission } from '@boardwalk/contract/staff-resources';
import { hasPermission, isAdmin, useStaffUser } from '../auth/staff-session.ts';
import { ResourceList } from '../resources/resource-list.tsx';
import { CustomPage, LoyaltyTabPage } from './custom-pages.tsx';
import { StaffNavbar } from './staff-navbar.tsx';

export function AdminPage() {
  const user = useStaffUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const listed = resources.filter((resource) => hasPermission(user, tabPermission(resource, 'List')));
  // The Loyalty tab has no list: Loyalty Manage shows it, after the Session tab.
  const loyalty = hasPermission(user, LOYALTY_TAB.permission) ? [LOYALTY_TAB] : [];
  const at = listed.findIndex((t) => t.key === LOYALTY_TAB.after) + 1 || listed.length;
  const tabs: { key: string; title: string }[] = [...listed.slice(0, at), ...loyalty, ...listed.slice(at)];
  const requested = searchParams.get('tab');
  const active = tabs.find((t) => t.key === requested) ?? tabs[0];

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
            {tabs.map((tab) => {
              const resource = listed.find((r) => r.key === tab.key);
              return (
                <Tab key={tab.key} eventKey={tab.key} title={tab.title}>
                  {!resource ? (
                    <LoyaltyTabPage user={user} />
                  ) : resource.page ? (
                    <CustomPage page={resource.page} resource={resource} user={user} />
                  ) : (
                    <ResourceList resource={resource} user={user} />
                  )}
                </Tab>
              );
            })}
          </Tabs>
        ) : (
          <p>You do not hold the list permission of any tab.</p>
        )}
      </main>
    </div>
  );
}

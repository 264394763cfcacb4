// The admin area: the grouped navigation (admin-navigation.tsx) beside the chosen tab, each tab
// at its own address (/admin/<key>), so a link or a reload opens the same tab. A member sees the
// tabs their permissions show (a table's `<Tab> List`, a page's own); /admin, an old
// /admin?tab=<key> link and a tab they may not see open their first tab. A tab that names a
// page shows the component `pages` maps its name to (staff-routes.tsx).
import { createElement, Suspense, useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { tabs } from '@boardwalk/contract/staff-navigation';
import { tabShownBy, type StaffPageName } from '@boardwalk/contract/staff-tabs';
import { hasPermission, isAdmin, useStaffUser, type StaffUser } from '../auth/staff-session.ts';
import { ResourceList } from '../resources/resource-list.tsx';
import { AdminNavigation, tabPath } from './admin-navigation.tsx';
import { StaffLoading } from './staff-loading.tsx';
import { StaffNavbar } from './staff-navbar.tsx';

export type StaffPages = Record<StaffPageName, (props: { user: StaffUser }) => React.ReactNode>;

export function AdminPage({ pages, tabKey }: { pages: StaffPages; tabKey: string | undefined }) {
  const user = useStaffUser();
  const [searchParams] = useSearchParams();
  const [menuOpen, setMenuOpen] = useState(false);
  const shown = tabs.filter((tab) => hasPermission(user, tabShownBy(tab)));
  const active = shown.find((t) => t.key === tabKey);

  useEffect(() => {
    document.title = active ? `${active.title} | Admin` : 'Admin';
  }, [active]);

  if (!user || !isAdmin(user)) return <Navigate to="/login" replace />;
  const fallback = shown.find((t) => t.key === searchParams.get('tab')) ?? shown[0];
  if (!active && fallback) return <Navigate to={tabPath(fallback.key)} replace />;

  return (
    <div className="staff-page">
      <a className="visually-hidden-focusable skip-link" href="#main">
        Skip to content
      </a>
      <header>
        <StaffNavbar user={user} onMenu={() => setMenuOpen(true)} />
      </header>
      <div className="staff-layout">
        <AdminNavigation user={user} shown={shown} open={menuOpen} onClose={() => setMenuOpen(false)} />
        <main id="main" className="container-fluid py-3 staff-main" tabIndex={-1}>
          <h1 className="visually-hidden">Admin</h1>
          {active ? (
            active.page ? (
              <Suspense fallback={<StaffLoading label={`Loading ${active.title}…`} />}>
                {createElement(pages[active.page], { key: active.key, user })}
              </Suspense>
            ) : (
              <ResourceList key={active.key} resource={active} user={user} />
            )
          ) : (
            <p>You do not hold the list permission of any tab.</p>
          )}
        </main>
      </div>
    </div>
  );
}

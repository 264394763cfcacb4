// The staff app, loaded lazily from app/router.tsx so guest pages never download it: /login,
// /admin, and any other path under them goes to /login. The session's expiry timer runs here
// while any staff page is open. PAGES maps each page a tab declaration names to its component:
// a new page tab is its declaration in the contract and one entry here.
import { lazy, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AdminPage, type StaffPages } from './admin/admin-page.tsx';
import { ToastProvider } from '../ui/toasts.tsx';
import { LoginPage } from './auth/login-page.tsx';
import { msUntilExpiry, useStaffUser } from './auth/staff-session.ts';
import { useStaffLogout } from './auth/use-staff-logout.ts';
import { DeliveriesPage } from './deliveries/deliveries-page.tsx';
import { LoyaltyPage } from './loyalty/loyalty-page.tsx';
import { PrivacyPage } from './privacy/privacy-page.tsx';
import { WebhooksPage } from './webhooks/webhooks-page.tsx';
import { WristbandsPage } from './wristbands/wristbands-page.tsx';
import './staff.css';

// The Dashboard and its charting library load only when it is opened.
const DashboardPage = lazy(() => import('./dashboard/dashboard-page.tsx'));

const PAGES: StaffPages = {
  dashboard: DashboardPage,
  deliveries: DeliveriesPage,
  wristbands: WristbandsPage,
  loyalty: LoyaltyPage,
  privacy: PrivacyPage,
  webhooks: WebhooksPage,
};

/** setTimeout takes at most 2^31 - 1 ms (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function useExpiryTimer() {
  const user = useStaffUser();
  const logout = useStaffLogout();
  useEffect(() => {
    if (!user) return;
    // The stored end time (UTC) minus now; then the member is logged out.
    const ms = msUntilExpiry(user);
    if (ms <= 0) {
      logout();
      return;
    }
    const timer = setTimeout(logout, Math.min(ms, MAX_TIMEOUT_MS));
    return () => clearTimeout(timer);
  }, [user, logout]);
}

function StaffPages() {
  useExpiryTimer();
  const path = useLocation().pathname.replace(/\/+$/, '') || '/';
  if (path === '/login') return <LoginPage />;
  if (path === '/admin') return <AdminPage pages={PAGES} tabKey={undefined} />;
  // Each tab at its own address: /admin/<key>.
  const tab = /^\/admin\/([a-z0-9-]+)$/.exec(path);
  if (tab) return <AdminPage pages={PAGES} tabKey={tab[1]} />;
  return <Navigate to="/login" replace />;
}

export default function StaffRoutes() {
  return (
    <ToastProvider>
      <StaffPages />
    </ToastProvider>
  );
}

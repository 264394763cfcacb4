// The route table. The pass page is in the entry chunk so a guest's first visit is one small
// download. Staff pages (/login, /admin) and the other guest areas (/activate, /stored-value,
// /loyalty, /privacy) are React.lazy routes, so they never grow the guest entry (dist/bundle-size.json,
// e2e/bundle-size.test.ts).
// Declarative routes: the data router would add about 15 KiB gzipped to every guest page.
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { useTranslations } from 'use-intl';
import { PassPage } from '../guest/pass/pass-page.tsx';
import { NotFound } from '../ui/not-found.tsx';
import { PageLayout } from '../ui/page-layout.tsx';
import { LoadingState } from '../ui/loading-state.tsx';

// Every area but the pass page is a chunk of its own, fetched when a guest opens it; meanwhile
// "Loading..." in the page's language (the staff pages speak English).
function AreaLoading() {
  return <LoadingState label={useTranslations('common')('loading')} />;
}
const loading = (page: ReactNode) => <Suspense fallback={<AreaLoading />}>{page}</Suspense>;

// The staff app: /login and /admin, and every path under them, which the staff app sends to
// /login. Other unknown paths stay the guest's "Page not found" ("any other path" goes to /login
// only under the staff paths, so guest links keep working).
const StaffRoutes = lazy(() => import('../staff/staff-routes.tsx'));
const staffRoutes = (
  <Suspense fallback={<LoadingState label="Loading..." />}>
    <StaffRoutes />
  </Suspense>
);
// Wristband activation: /activate/ and /activate/{orderId}/{barcode}.
const WristbandPage = lazy(() => import('../guest/wristband/wristband-page.tsx'));
// The stored-value page: reached from a voucher's QR code or the pass card.
const StoredValuePage = lazy(() => import('../guest/stored-value/stored-value-page.tsx'));
// The loyalty club (/loyalty/...). Its routes are declared here, not in a nested table under
// loyalty/*: a splat route ranks below the pass page's /:orderId/:barcode/:shareId, which
// would take /loyalty/purchase/4012.
const LoyaltyHome = lazy(() => import('../guest/loyalty/loyalty-home.tsx').then((m) => ({ default: m.LoyaltyHome })));
const ClaimPage = lazy(() => import('../guest/loyalty/claim-page.tsx').then((m) => ({ default: m.ClaimPage })));
const LoyaltyPassPage = lazy(() => import('../guest/loyalty/loyalty-pass-page.tsx').then((m) => ({ default: m.LoyaltyPassPage })));
const StatementPage = lazy(() => import('../guest/loyalty/statement-page.tsx').then((m) => ({ default: m.StatementPage })));
const FindPassPage = lazy(() => import('../guest/loyalty/find-pass-page.tsx').then((m) => ({ default: m.FindPassPage })));
const CLAIM_KINDS = ['tickets', 'purchase', 'hotels'] as const;
// A guest's own data (/privacy/ and the emailed link's /privacy/manage).
const PrivacyRequestPage = lazy(() => import('../guest/privacy/privacy-request-page.tsx').then((m) => ({ default: m.PrivacyRequestPage })));
const PrivacyManagePage = lazy(() => import('../guest/privacy/privacy-manage-page.tsx').then((m) => ({ default: m.PrivacyManagePage })));

function GuestLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    // Braces: newer browsers return a promise from scrollTo, which is no effect cleanup.
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <PageLayout>
      <Outlet />
    </PageLayout>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="login/*" element={staffRoutes} />
      <Route path="admin/*" element={staffRoutes} />
      <Route element={<GuestLayout />}>
        <Route index element={<PassPage />} />
        <Route path="loyalty">
          <Route index element={loading(<LoyaltyHome />)} />
          {CLAIM_KINDS.map((kind) => (
            <Route key={kind} path={`${kind}/:code?`} element={loading(<ClaimPage kind={kind} />)} />
          ))}
          <Route path="passes" element={loading(<FindPassPage />)} />
          <Route path="pass" element={loading(<LoyaltyPassPage />)} />
          <Route path="statement" element={loading(<StatementPage />)} />
          <Route path="*" element={<NotFound />} />
        </Route>
        <Route path="privacy">
          <Route index element={loading(<PrivacyRequestPage />)} />
          <Route path="manage" element={loading(<PrivacyManagePage />)} />
          <Route path="*" element={<NotFound />} />
        </Route>
        <Route path="stored-value/:barcodeHash" element={loading(<StoredValuePage />)} />
        <Route path="activate" element={loading(<WristbandPage />)} />
        <Route path="activate/:orderId/:barcode" element={loading(<WristbandPage />)} />
        {/* One segment: a share link (hashUrl) when longer than 80 characters, else not found. */}
        <Route path=":hashUrl" element={<PassPage />} />
        <Route path=":orderId/:barcode/:shareId?" element={<PassPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

// The route table. Guest pages are in the entry chunk so a guest's first visit is one small
// download. Staff pages (/login, /admin) and the other guest areas (/activate, /stored-value,
// /loyalty) are added by their issues as React.lazy routes, e.g.
//   const AdminRoutes = lazy(() => import('../staff/admin-routes.tsx'));
//   <Route path="admin/*" element={<Suspense fallback={...}><AdminRoutes /></Suspense>} />
// so they never grow the guest entry (dist/bundle-size.json, e2e/bundle-size.test.ts).
// Declarative routes: the data router would add about 15 KiB gzipped to every guest page.
import { lazy, Suspense, useEffect } from 'react';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { PassPage } from '../guest/pass/pass-page.tsx';
import { NotFound } from '../ui/not-found.tsx';
import { PageLayout } from '../ui/page-layout.tsx';
import { LoadingState } from '../ui/loading-state.tsx';

// The staff app (issue 5): /login and /admin, and every path under them, which the staff app
// sends to /login. Other unknown paths stay the guest's "Page not found" (the spec's "any
// other path" is read as any other staff path, so guest links keep working).
const StaffRoutes = lazy(() => import('../staff/staff-routes.tsx'));
const staffPage = (
  <Suspense fallback={<LoadingState label="Loading..." />}>
    <StaffRoutes />
  </Suspense>
);

// Wristband activation (issue 11): /activate/ and /activate/{orderId}/{barcode}, on demand.
const WristbandPage = lazy(() => import('../guest/wristband/wristband-page.tsx'));
const wristbandPage = (
  <Suspense fallback={<LoadingState label="Loading..." />}>
    <WristbandPage />
  </Suspense>
);

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
      <Route path="login/*" element={staffPage} />
      <Route path="admin/*" element={staffPage} />
      <Route element={<GuestLayout />}>
        <Route index element={<PassPage />} />
        <Route path="activate" element={wristbandPage} />
        <Route path="activate/:orderId/:barcode" element={wristbandPage} />
        {/* One segment: a share link (hashUrl) when longer than 80 characters, else not found. */}
        <Route path=":hashUrl" element={<PassPage />} />
        <Route path=":orderId/:barcode/:shareId?" element={<PassPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

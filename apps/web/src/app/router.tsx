// The route table. The pass page is in the entry chunk so a guest's first visit is one small
// download. Staff pages (/login, /admin) and the other guest areas (/activate, /stored-value,
// /loyalty, /privacy) are React.lazy routes, so they never grow the guest entry (dist/bundle-size.json,
// e2e/bundle-size.test.ts). Each guest route names the catalogue's areas it shows besides common
// and errors (@boardwalk/contract/i18n/pages): they load with its code, under the same Suspense.
// Declarative routes: the data router would add about 15 KiB gzipped to every guest page.
import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { useTranslations } from 'use-intl';
import { GUEST_SHELLS } from '@boardwalk/contract/guest-shells';
import type { PageArea } from '@boardwalk/contract/i18n/pages';
import { PassPage } from '../guest/pass/pass-page.tsx';
import { AreaTexts } from '../lib/language.tsx';
import { NotFound } from '../ui/not-found.tsx';
import { PageLayout } from '../ui/page-layout.tsx';
import { LoadingState } from '../ui/loading-state.tsx';

// Every area but the pass page is a chunk of its own, fetched when a guest opens it; meanwhile
// "Loading..." in the page's language (the staff pages speak English).
function AreaLoading() {
  return <LoadingState label={useTranslations('common')('loading')} />;
}
const loading = (page: ReactNode) => <Suspense fallback={<AreaLoading />}>{page}</Suspense>;

/**
 * A lazy guest page with its areas of the catalogue: both downloads start when the route first
 * renders (the code is asked for beside the words, not after them), and its Suspense waits for both.
 */
function guestPage<P extends object>(areas: readonly PageArea[], load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let code: Promise<ComponentType<P>> | undefined;
  const loadCode = () => (code ??= load());
  const Page = lazy(async () => ({ default: await loadCode() }));
  return function GuestPage(props: P) {
    void loadCode();
    return (
      <AreaTexts areas={areas}>
        <Page {...props} />
      </AreaTexts>
    );
  };
}

// The staff app: /login and /admin, and every path under them, which the staff app sends to
// /login. Other unknown paths stay the guest's "Page not found" ("any other path" goes to /login
// only under the staff paths, so guest links keep working).
const StaffRoutes = lazy(() => import('../staff/staff-routes.tsx'));
const staffRoutes = (
  <Suspense fallback={<LoadingState label="Loading..." />}>
    <StaffRoutes />
  </Suspense>
);
// The pass page, in the entry chunk: its areas are loaded before the first render when a guest
// opens it (main.tsx), and on the way to it from another page.
const passPage = loading(
  <AreaTexts areas={GUEST_SHELLS.pass.areas}>
    <PassPage />
  </AreaTexts>,
);
// Wristband activation: /activate/ and /activate/{orderId}/{barcode}.
const WristbandPage = guestPage(['ticket', 'wristband'], async () => (await import('../guest/wristband/wristband-page.tsx')).default);
// The stored-value page: reached from a voucher's QR code or the pass card.
const StoredValuePage = guestPage(
  GUEST_SHELLS.storedValue.areas,
  async () => (await import('../guest/stored-value/stored-value-page.tsx')).default,
);
// The loyalty club (/loyalty/...). Its routes are declared here, not in a nested table under
// loyalty/*: a splat route ranks below the pass page's /:orderId/:barcode/:shareId, which
// would take /loyalty/purchase/4012.
const LoyaltyHome = guestPage(GUEST_SHELLS.loyalty.areas, async () => (await import('../guest/loyalty/loyalty-home.tsx')).LoyaltyHome);
const ClaimPage = guestPage(['loyalty', 'wallet'], async () => (await import('../guest/loyalty/claim-page.tsx')).ClaimPage);
const LoyaltyPassPage = guestPage(
  ['loyalty', 'wallet'],
  async () => (await import('../guest/loyalty/loyalty-pass-page.tsx')).LoyaltyPassPage,
);
const StatementPage = guestPage(
  ['loyalty', 'statement', 'wallet'],
  async () => (await import('../guest/loyalty/statement-page.tsx')).StatementPage,
);
const FindPassPage = guestPage(['loyalty', 'ticket'], async () => (await import('../guest/loyalty/find-pass-page.tsx')).FindPassPage);
const CLAIM_KINDS = ['tickets', 'purchase', 'hotels'] as const;
// A guest's own data (/privacy/ and the emailed link's /privacy/manage).
const PrivacyRequestPage = guestPage(
  ['privacy'],
  async () => (await import('../guest/privacy/privacy-request-page.tsx')).PrivacyRequestPage,
);
const PrivacyManagePage = guestPage(['privacy'], async () => (await import('../guest/privacy/privacy-manage-page.tsx')).PrivacyManagePage);

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
        <Route index element={passPage} />
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
        <Route path=":hashUrl" element={passPage} />
        <Route path=":orderId/:barcode/:shareId?" element={passPage} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

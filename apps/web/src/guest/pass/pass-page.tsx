import { lazy, Suspense, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslations } from 'use-intl';
import { passOrder, type PassOrder } from '@boardwalk/contract/pass';
import { failedWith } from '../../lib/api-client.ts';
import { forgetAllCopies, useDeviceCopy } from '../../lib/device-copy.ts';
import { LoadingState } from '../../ui/loading-state.tsx';
import { NotFound } from '../../ui/not-found.tsx';
import { ExclusionNotice } from '../ticket/exclusion-notice.tsx';
import { passQueryKey, usePass } from '../ticket/get-pass.ts';
import { LoginForm } from '../ticket/login-form.tsx';
import { NoLongerShared } from './no-longer-shared.tsx';
import { canonicalCredentials, credentialsFromParams, passPath, type PassCredentials } from '../ticket/pass-route.ts';
import { useLoginErrorMessage } from '../ticket/pass-errors.ts';
import { canEditRegistration, isNoLongerShared, needsRegistration, showsBarcode } from '../ticket/pass-rules.ts';
import { preloadBarcodeGraphic } from '../ticket/barcode-slot.tsx';
import { PassView } from './pass-view.tsx';
import { offlinePass, passExpiry } from './offline-pass.ts';

// The registration form and its phone mask are only needed for some orders: a chunk of its
// own, fetched as soon as the guest submits a lookup so it is there when the answer asks for
// it. A pass URL opened directly fetches it only when its answer needs it: until then the
// page's own scripts have the phone's connection to themselves (e2e/bundle-size.test.ts).
const loadRegistrationForm = () => import('./registration-form.tsx');
const RegistrationForm = lazy(loadRegistrationForm);

/** The main page: /, /{orderId}/{barcode}/{shareId?} and /{hashUrl} (a share link). */
export function PassPage() {
  const credentials = credentialsFromParams(useParams());
  if (credentials === 'invalid') return <NotFound />;
  // A new URL is a new page state: nothing typed or chosen carries over.
  return <PassFlow key={passPath(credentials)} credentials={credentials} />;
}

function PassFlow({ credentials }: { credentials: PassCredentials | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pass = usePass(credentials);
  const [editing, setEditing] = useState(false);
  const t = useTranslations();
  const loginErrorMessage = useLoginErrorMessage();

  /** The URL follows the order (its barcode and share id); the answer is already in hand. */
  const showOrder = (requested: PassCredentials, order: PassOrder) => {
    const canonical = canonicalCredentials(requested, order);
    queryClient.setQueryData(passQueryKey(canonical), order);
    navigate(passPath(canonical), { replace: true });
  };

  const order = pass.data;
  const needsNewUrl = credentials && order && passPath(canonicalCredentials(credentials, order)) !== passPath(credentials);
  useEffect(() => {
    if (needsNewUrl && credentials && order) showOrder(credentials, order);
  });
  // With no network, the pass as this page last showed it (lib/device-copy.ts); a pass that is
  // no longer shared or no longer found is erased from the device.
  const device = useDeviceCopy(credentials && passPath(credentials), pass, {
    schema: passOrder,
    shown: !needsNewUrl,
    erases: (error) => isNoLongerShared(error) || failedWith(error, 'ORDER_NOT_FOUND'),
    prepare: (kept) => showsBarcode(kept) && preloadBarcodeGraphic(),
    keep: offlinePass,
    expires: passExpiry,
  });

  const startOver = () => {
    queryClient.removeQueries({ queryKey: ['pass'] });
    void forgetAllCopies();
    navigate('/');
  };

  if (!credentials) {
    return <LoginForm onSubmit={() => void loadRegistrationForm()} onLoggedIn={(loaded, requested) => showOrder(requested, loaded)} />;
  }
  if (pass.isPending || needsNewUrl || device.pending) return <LoadingState label={t('ticket.login.busy')} />;
  const copy = device.copy;
  if (pass.isError && !copy) {
    if (isNoLongerShared(pass.error)) return <NoLongerShared onStartOver={startOver} />;
    return (
      <LoginForm
        {...(credentials.kind === 'order' && { initialOrderId: credentials.orderId, initialBarcode: credentials.barcode })}
        loadError={loginErrorMessage(pass.error)}
        onSubmit={() => void loadRegistrationForm()}
        onLoggedIn={(loaded, requested) => showOrder(requested, loaded)}
      />
    );
  }
  const loaded = copy ? copy.data : pass.data;
  if (!loaded) return null;
  if (loaded.excluded) return <ExclusionNotice order={loaded} onStartOver={startOver} />;
  if (editing || needsRegistration(loaded)) {
    return (
      <Suspense fallback={<LoadingState label={t('pass.loading')} />}>
        <RegistrationForm
          order={loaded}
          credentials={credentials}
          onCancel={editing ? () => setEditing(false) : undefined}
          onSaved={() => setEditing(false)}
          onStartOver={startOver}
        />
      </Suspense>
    );
  }
  return (
    <PassView
      order={loaded}
      credentials={credentials}
      shownAt={copy?.shownAt}
      onEditRegistration={!copy && canEditRegistration(loaded) ? () => setEditing(true) : undefined}
      onStartOver={startOver}
    />
  );
}

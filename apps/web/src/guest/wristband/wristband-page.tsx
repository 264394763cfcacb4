// The wristband activation flow: /activate/ starts with the login form;
// /activate/{orderId}/{barcode} shows the pass card with the wristband code field, or the
// redeemed / not-a-wristband notice, or that the wristband is active. Start Over goes back to
// /activate/. Loaded on demand (router.tsx), so the guest entry does not grow.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'use-intl';
import Form from 'react-bootstrap/Form';
import { useNavigate, useParams } from 'react-router';
import type { PassOrder } from '@boardwalk/contract/pass';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { NotFound } from '../../ui/not-found.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { StartOverActions } from '../ticket/start-over.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ExclusionNotice } from '../ticket/exclusion-notice.tsx';
import { passQueryKey, usePass } from '../ticket/get-pass.ts';
import { LoginForm } from '../ticket/login-form.tsx';
import { PassCard } from '../ticket/pass-card.tsx';
import { canonicalCredentials, credentialsFromParams, type PassCredentials } from '../ticket/pass-route.ts';
import { useLoginErrorMessage } from '../ticket/pass-errors.ts';
import { useActivateWristband } from './activate-wristband.ts';
import { canActivate, codeIsInvalid, useActivationError, useValidityText, wristbandState } from './wristband-rules.ts';
import './wristband.css';

/** /activate/ or /activate/{orderId}/{barcode}. */
export function activatePath(credentials: PassCredentials | null): string {
  if (!credentials || credentials.kind !== 'order') return '/activate/';
  return `/activate/${credentials.orderId}/${credentials.barcode}`;
}

export default function WristbandPage() {
  const { orderId, barcode } = useParams();
  const credentials = credentialsFromParams({ orderId, barcode });
  if (credentials === 'invalid') return <NotFound />;
  // A new URL is a new page state: nothing typed carries over.
  return <WristbandFlow key={activatePath(credentials)} credentials={credentials} />;
}

function WristbandFlow({ credentials }: { credentials: PassCredentials | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pass = usePass(credentials);
  const loginErrorMessage = useLoginErrorMessage();
  const t = useTranslations();

  /** After login the URL names the ticket (/activate/{orderId}/{barcode}); the answer is already in hand. */
  const showOrder = (requested: PassCredentials, order: PassOrder) => {
    const canonical = canonicalCredentials(requested, order);
    queryClient.setQueryData(passQueryKey(canonical), order);
    navigate(activatePath(canonical), { replace: true });
  };
  const startOver = () => {
    queryClient.removeQueries({ queryKey: ['pass'] });
    navigate('/activate/');
  };
  const loginProps = {
    heading: t('wristband.heading'),
    intro: t('wristband.intro'),
    onLoggedIn: (order: PassOrder, requested: PassCredentials) => showOrder(requested, order),
  };

  if (!credentials) return <LoginForm {...loginProps} />;
  if (pass.isPending) return <LoadingState label={t('ticket.login.busy')} />;
  if (pass.isError) {
    return (
      <LoginForm
        {...loginProps}
        {...(credentials.kind === 'order' && { initialOrderId: credentials.orderId, initialBarcode: credentials.barcode })}
        loadError={loginErrorMessage(pass.error)}
      />
    );
  }
  if (pass.data.excluded) return <ExclusionNotice order={pass.data} onStartOver={startOver} />;
  return (
    <WristbandView
      order={pass.data}
      onActivated={() => queryClient.setQueryData(passQueryKey(credentials), { ...pass.data, isPassActivated: true })}
      onStartOver={startOver}
    />
  );
}

function WristbandView({ order, onActivated, onStartOver }: { order: PassOrder; onActivated: () => void; onStartOver: () => void }) {
  const site = useSiteInfo();
  const t = useTranslations('wristband');
  const validityText = useValidityText();
  // The validity text of an activation made on this page ("Valid through 11/21/26").
  const [validity, setValidity] = useState<string | null>(null);
  const state = wristbandState(order);

  let content;
  if (validity !== null) {
    content = (
      <div className="alert alert-success mb-0" data-testid="wristband-activated">
        <p className="fw-semibold mb-1">{t('active')}</p>
        {validity ? <p className="mb-0">{validityText(validity)}</p> : null}
      </div>
    );
  } else if (state === 'redeemed') {
    content = (
      <p className="notice mb-0" data-testid="wristband-notice">
        {t('redeemed')}
      </p>
    );
  } else if (state === 'not-wristband') {
    content = (
      <p className="notice mb-0" data-testid="wristband-notice">
        {t('notWristband')}
      </p>
    );
  } else if (state === 'active') {
    content = (
      <div className="alert alert-success mb-0" data-testid="wristband-active">
        <p className="fw-semibold mb-1">{t('active')}</p>
        <p className="mb-0">{t('lost')}</p>
      </div>
    );
  } else {
    content = (
      <ActivateForm
        order={order}
        onActivated={(text) => {
          setValidity(text);
          onActivated();
        }}
      />
    );
  }

  return (
    <section className="pass-view" aria-labelledby="wristband-heading">
      <PageHeading id="wristband-heading">{t('heading')}</PageHeading>
      <PassCard order={order} brandName={site?.brandName ?? null} />
      {/* Announced when it changes (activated), so a screen reader hears the outcome. */}
      <div className="wristband-panel" aria-live="polite">
        {content}
      </div>
      <StartOverActions className="actions actions--center" onStartOver={onStartOver} />
    </section>
  );
}

function ActivateForm({ order, onActivated }: { order: PassOrder; onActivated: (validity: string) => void }) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState(false);
  const t = useTranslations('wristband');
  const activationError = useActivationError();
  const activate = useActivateWristband({ onSuccess: onActivated });
  const typed = code.trim();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canActivate(typed) || activate.isPending) return;
    const invalid = codeIsInvalid(typed);
    setFieldError(invalid);
    if (invalid) return;
    activate.mutate({ barcode: order.barcode, wristbandBarcode: typed, wristbandActivateToken: order.wristbandActivateToken ?? '' });
  };

  return (
    <Form noValidate onSubmit={submit} aria-label={t('form')} className="wristband-form">
      <LiveAlert message={activate.isError ? activationError(activate.error) : null} />
      <TextField
        id="wristbandBarcode"
        label={t('codeLabel')}
        hint={t('codeHint')}
        name="wristbandBarcode"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={code}
        error={fieldError ? t('codeInvalid') : undefined}
        onChange={(e) => {
          setCode(e.target.value);
          setFieldError(false);
        }}
      />
      <BusyButton
        type="submit"
        variant="primary"
        size="lg"
        className="w-100"
        disabled={!canActivate(typed)}
        busy={activate.isPending}
        busyLabel={t('activating')}
      >
        {t('activate')}
      </BusyButton>
    </Form>
  );
}

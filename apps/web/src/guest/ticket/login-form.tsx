import { useRef, useState, type FormEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { useTranslations } from 'use-intl';
import type { PassOrder } from '@boardwalk/contract/pass';
import { BusyButton, MAIN_BUTTON } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { useLogin } from './get-pass.ts';
import { isBarcodeInput, isOrderIdInput, type PassCredentials } from './pass-route.ts';
import { useLoginErrorMessage } from './pass-errors.ts';
import { OrderFields } from './order-fields.tsx';

interface LoginFormProps {
  /** The page's own heading and intro (the wristband activation page); the pass page's by default. */
  heading?: string;
  intro?: string;
  initialOrderId?: string;
  initialBarcode?: string;
  /** Why the pass in the URL could not be shown, until the guest tries again. */
  loadError?: string | null;
  /** A valid lookup starts. */
  onSubmit?: () => void;
  onLoggedIn: (order: PassOrder, credentials: PassCredentials) => void;
}

interface LoginErrors {
  orderId?: string;
  barcode?: string;
}

type LoginProblem = 'orderIdRequired' | 'orderIdInvalid' | 'barcodeRequired' | 'barcodeInvalid';

/** What is wrong with each field, by its text's key (ticket.order). */
function validate(orderId: string, barcode: string): Partial<Record<keyof LoginErrors, LoginProblem>> {
  const errors: Partial<Record<keyof LoginErrors, LoginProblem>> = {};
  if (!orderId) errors.orderId = 'orderIdRequired';
  else if (!isOrderIdInput(orderId)) errors.orderId = 'orderIdInvalid';
  if (!barcode) errors.barcode = 'barcodeRequired';
  else if (!isBarcodeInput(barcode)) errors.barcode = 'barcodeInvalid';
  return errors;
}

/** The main page with no pass loaded: order id and barcode. */
export function LoginForm({
  heading,
  intro,
  initialOrderId = '',
  initialBarcode = '',
  loadError = null,
  onSubmit,
  onLoggedIn,
}: LoginFormProps) {
  const [orderId, setOrderId] = useState(initialOrderId);
  const [barcode, setBarcode] = useState(initialBarcode);
  const t = useTranslations('ticket');
  const loginErrorMessage = useLoginErrorMessage();
  // The problems, worded in the page's language as it renders (a switch rewords them).
  const [problems, setProblems] = useState<ReturnType<typeof validate>>({});
  const errors: LoginErrors = {
    ...(problems.orderId && { orderId: t(`order.${problems.orderId}`) }),
    ...(problems.barcode && { barcode: t(`order.${problems.barcode}`) }),
  };
  const orderIdRef = useRef<HTMLInputElement>(null);
  const barcodeRef = useRef<HTMLInputElement>(null);
  const login = useLogin({ onSuccess: (order, credentials) => onLoggedIn(order, credentials) });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(orderId, barcode);
    setProblems(found);
    if (found.orderId) return orderIdRef.current?.focus();
    if (found.barcode) return barcodeRef.current?.focus();
    // Login runs only with both an order id and a barcode; an empty one takes the focus instead.
    onSubmit?.();
    login.mutate({ kind: 'order', orderId, barcode, shareId: '' });
  };

  const message = login.isError ? loginErrorMessage(login.error) : login.isIdle ? loadError : null;

  return (
    <section className="panel panel--narrow" aria-labelledby="login-heading">
      <PageHeading id="login-heading">{heading ?? t('login.heading')}</PageHeading>
      <p className="panel__intro">{intro ?? t('login.intro')}</p>
      <LiveAlert message={message} />
      {/* method="dialog": a tap on the prerendered form before the app has taken it over does nothing
          (a form outside a dialog is not sent), rather than reloading the page and losing what was typed. */}
      <Form noValidate method="dialog" onSubmit={submit}>
        <OrderFields
          ids={{ orderId: 'orderId', barcode: 'barcode' }}
          named
          values={{ orderId, barcode }}
          onChange={{ orderId: setOrderId, barcode: setBarcode }}
          errors={errors}
          refs={{ orderId: orderIdRef, barcode: barcodeRef }}
        />
        <BusyButton type="submit" {...MAIN_BUTTON} busy={login.isPending} busyLabel={t('login.busy')}>
          {t('login.submit')}
        </BusyButton>
      </Form>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import { useTranslations } from 'use-intl';
import { BusyButton, MAIN_BUTTON } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { useLogin } from '../ticket/get-pass.ts';
import { OrderFields } from '../ticket/order-fields.tsx';
import { isBarcodeInput, isOrderIdInput, passPath } from '../ticket/pass-route.ts';
import { useLoginErrorMessage } from '../ticket/pass-errors.ts';

/**
 * The loyalty area's pass lookup (/loyalty/passes): the same call as the main page's
 * login (POST /api/login/); a found pass opens on the main page with its wallet buttons.
 */
export function FindPassPage() {
  const navigate = useNavigate();
  const [orderId, setOrderId] = useState('');
  const [barcode, setBarcode] = useState('');
  const loginErrorMessage = useLoginErrorMessage();
  const t = useTranslations('loyalty.findPass');
  const login = useLogin({
    onSuccess: (order, credentials) => credentials.kind === 'order' && navigate(passPath({ ...credentials, barcode: order.barcode })),
  });
  const ready = isOrderIdInput(orderId) && isBarcodeInput(barcode);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (ready) login.mutate({ kind: 'order', orderId, barcode, shareId: '' });
  };
  return (
    <section className="panel panel--narrow" aria-labelledby="find-pass-heading">
      <PageHeading id="find-pass-heading">{t('heading')}</PageHeading>
      <p className="panel__intro">{t('intro')}</p>
      <LiveAlert message={login.isError ? loginErrorMessage(login.error) : null} />
      <Form noValidate onSubmit={submit}>
        <OrderFields
          ids={{ orderId: 'findOrderId', barcode: 'findBarcode' }}
          values={{ orderId, barcode }}
          onChange={{ orderId: setOrderId, barcode: setBarcode }}
        />
        <BusyButton type="submit" {...MAIN_BUTTON} disabled={!ready} busy={login.isPending} busyLabel={t('busy')}>
          {t('submit')}
        </BusyButton>
      </Form>
    </section>
  );
}

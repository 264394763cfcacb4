// The owner's "Manage Ticket Shares" section: the ticket's active shares, a button to set one
// up, each row opening the modal to modify or stop it. The section comes with the pass card (it
// is often the largest text of the page, which a phone should paint with the card); the modal
// and its phone mask are a chunk of their own, loaded when the guest opens it.
import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { useTranslations } from 'use-intl';
import type { PassOrder, TicketShare } from '@boardwalk/contract/pass';
import { formatPhone, fullName } from '../../lib/format.ts';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { useShareErrorMessage, useShares } from './share-api.ts';
import './share.css';

const ShareModal = lazy(() => import('./share-modal.tsx').then((m) => ({ default: m.ShareModal })));

const TOAST_DELAY_MS = 5_000;

type Editing = { share: TicketShare | null } | null;
type Done = 'created' | 'updated' | 'deleted';

export function ShareSection({ order }: { order: PassOrder }) {
  const shares = useShares(order);
  const t = useTranslations('share');
  const shareErrorMessage = useShareErrorMessage();
  const [editing, setEditing] = useState<Editing>(null);
  const [toast, setToast] = useState<{ id: number; done: Done } | null>(null);

  const done = (what: Done) => {
    setEditing(null);
    setToast({ id: Date.now(), done: what });
  };

  let list;
  if (shares.isPending) {
    list = (
      <p className="share-section__status" role="status">
        <Spinner as="span" animation="border" size="sm" aria-hidden="true" className="me-2" />
        {t('loading')}
      </p>
    );
  } else if (shares.isError) {
    list = <LiveAlert message={shareErrorMessage(shares.error, 'list')} />;
  } else if (shares.data.length === 0) {
    list = <p className="share-section__empty">{t('empty')}</p>;
  } else {
    list = (
      <ul className="share-list" aria-label={t('list')}>
        {shares.data.map((share) => {
          const name = fullName(share.firstName, share.lastName);
          return (
            <li key={share.id}>
              <button
                type="button"
                className="share-list__row"
                onClick={() => setEditing({ share })}
                aria-label={t('modifyWith', { name })}
              >
                <span className="share-list__name">{name}</span>
                <span className="share-list__contact">{share.email}</span>
                {share.phone ? <span className="share-list__contact">{formatPhone(share.phone)}</span> : null}
                <span className="share-list__edit" aria-hidden="true">
                  {t('modify')}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className="share-section" aria-labelledby="share-heading">
      <h2 id="share-heading" className="share-section__heading">
        {t('heading')}
      </h2>
      <p className="share-section__intro">{t('intro')}</p>
      {list}
      <Button variant="primary" className="share-section__add" onClick={() => setEditing({ share: null })}>
        {t('add')}
      </Button>
      {editing ? (
        <Suspense fallback={null}>
          <ShareModal ticket={order} share={editing.share} onClose={() => setEditing(null)} onDone={done} />
        </Suspense>
      ) : null}
      <ToastContainer position="bottom-center" className="p-3 position-fixed" containerPosition="fixed">
        {toast ? (
          <Toast key={toast.id} bg="success" autohide delay={TOAST_DELAY_MS} onClose={() => setToast(null)} className="share-toast">
            <div className="d-flex">
              <Toast.Body className="text-white">{t(toast.done)}</Toast.Body>
              <button
                type="button"
                className="btn-close btn-close-white me-2 m-auto"
                aria-label={t('close')}
                onClick={() => setToast(null)}
              />
            </div>
          </Toast>
        ) : null}
      </ToastContainer>
    </section>
  );
}

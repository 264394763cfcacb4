// The owner's "Manage Ticket Shares" section: the ticket's active shares, a button to set one
// up, each row opening the modal to modify or stop it. The section comes with the pass card (it
// is often the largest text of the page, which a phone should paint with the card); the modal
// and its phone mask are a chunk of their own, loaded when the guest opens it.
import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import type { PassOrder, TicketShare } from '@boardwalk/contract/pass';
import { shareTexts } from '@boardwalk/contract/share';
import { formatPhone, fullName } from '../../lib/format.ts';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { shareErrorMessage, useShares } from './share-api.ts';
import './share.css';

const ShareModal = lazy(() => import('./share-modal.tsx').then((m) => ({ default: m.ShareModal })));

const TOAST_DELAY_MS = 5_000;

type Editing = { share: TicketShare | null } | null;

export function ShareSection({ order }: { order: PassOrder }) {
  const shares = useShares(order);
  const [editing, setEditing] = useState<Editing>(null);
  const [toast, setToast] = useState<{ id: number; message: string } | null>(null);

  const done = (message: string) => {
    setEditing(null);
    setToast({ id: Date.now(), message });
  };

  let list;
  if (shares.isPending) {
    list = (
      <p className="share-section__status" role="status">
        <Spinner as="span" animation="border" size="sm" aria-hidden="true" className="me-2" />
        Loading guests…
      </p>
    );
  } else if (shares.isError) {
    list = <LiveAlert message={shareErrorMessage(shares.error, 'list')} />;
  } else if (shares.data.length === 0) {
    list = <p className="share-section__empty">This ticket is not shared with anyone yet.</p>;
  } else {
    list = (
      <ul className="share-list" aria-label="Guests this ticket is shared with">
        {shares.data.map((share) => {
          const name = fullName(share.firstName, share.lastName);
          return (
            <li key={share.id}>
              <button
                type="button"
                className="share-list__row"
                onClick={() => setEditing({ share })}
                aria-label={`Modify share with ${name}`}
              >
                <span className="share-list__name">{name}</span>
                <span className="share-list__contact">{share.email}</span>
                {share.phone ? <span className="share-list__contact">{formatPhone(share.phone)}</span> : null}
                <span className="share-list__edit" aria-hidden="true">
                  Modify
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
        {shareTexts.heading}
      </h2>
      <p className="share-section__intro">Share this card with family and friends: each guest gets their own link to the pass by email.</p>
      {list}
      <Button variant="primary" className="share-section__add" onClick={() => setEditing({ share: null })}>
        Share With a Guest
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
              <Toast.Body className="text-white">{toast.message}</Toast.Body>
              <button type="button" className="btn-close btn-close-white me-2 m-auto" aria-label="Close" onClick={() => setToast(null)} />
            </div>
          </Toast>
        ) : null}
      </ToastContainer>
    </section>
  );
}

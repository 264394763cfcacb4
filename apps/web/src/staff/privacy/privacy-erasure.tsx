// Erasing a person's data: the confirmation names what goes and what is kept, and the answer
// lists what was erased and the orders to erase in the ticketing system too.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { privacyErasure, type PrivacyErasure, type PrivacyExport } from '@boardwalk/contract/privacy';
import { PRIVACY } from '@boardwalk/contract/staff-operations-tabs';
import { ConfirmModal } from '../resources/confirm-modal.tsx';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What an erasure of this document's person removes and what it keeps, in the confirmation's words. */
function erasureSummary(doc: PrivacyExport) {
  const goes = [
    doc.tickets.length > 0 &&
      `Their name, email and phone on ${plural(doc.tickets.length, 'ticket')} and the orders they bought, and on their registrations (marketing consents withdrawn).`,
    doc.sharesReceived.length > 0 && `${plural(doc.sharesReceived.length, 'share')} made to them: stopped, their links no longer open.`,
    doc.photos.length > 0 && `${plural(doc.photos.length, 'photo')}: deleted, and removed from the pass.`,
    doc.loyalty.length > 0 &&
      `Their loyalty ${doc.loyalty.length === 1 ? 'account' : 'accounts'} (${doc.loyalty.map((a) => a.memberNumber).join(', ')}): name, email, phone and zip replaced; member cards voided in the wallets.`,
    doc.hotelReservations.length > 0 && `Names and email on ${plural(doc.hotelReservations.length, 'hotel reservation')}.`,
    doc.mails.length > 0 && `${plural(doc.mails.length, 'mail')} sent to them.`,
  ].filter((line): line is string => typeof line === 'string');
  const kept = [
    'Orders and tickets stay (financial records of the ticketing system); a ticket that is still valid stays valid, and its pass is updated without their name and photo.',
    doc.loyalty.length > 0 && 'The points ledger stays under the member number: the points liability stays exact.',
    doc.sharesMade.length > 0 && 'Shares they made keep working for the people they were made to.',
    doc.visitReservations.length > 0 &&
      `Visit reservations of their passes (${doc.visitReservations.length}) stay with the passes: they hold no name.`,
    'An activated season pass of theirs is locked: no new photo or name goes on it until staff lift the lock here.',
  ].filter((line): line is string => typeof line === 'string');
  return { goes, kept };
}

export function EraseDialog({
  doc,
  onClose,
  onErased,
}: {
  doc: PrivacyExport;
  onClose: () => void;
  onErased: (result: PrivacyErasure) => void;
}) {
  const handleError = useStaffErrorHandler();
  const [message, setMessage] = useState<string | null>(null);
  const erase = useMutation({
    mutationFn: async () => (await staffRequest(PRIVACY.erase.api, { method: 'POST', body: doc.query, schema: privacyErasure })).data,
    onSuccess: onErased,
    onError: (error) => setMessage(handleError(error)),
  });
  const { goes, kept } = erasureSummary(doc);
  const { query } = doc;
  const who =
    query.firstName !== undefined
      ? `${query.firstName} ${query.lastName ?? ''}`
      : (query.email ?? query.phone ?? `the guest of ${query.barcode ?? ''}`);
  return (
    <ConfirmModal
      id="privacy-erase-title"
      title="Erase Personal Data"
      busy={erase.isPending}
      busyLabel="Erasing..."
      confirmLabel="Yes, Erase"
      message={message}
      onConfirm={() => erase.mutate()}
      onClose={onClose}
    >
      <p>
        Erase everything held about <strong className="text-break">{who}</strong>? This cannot be undone.
      </p>
      <h3 className="h6">Erased</h3>
      <ul>
        {goes.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <h3 className="h6">Kept</h3>
      <ul className="mb-0">
        {kept.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </ConfirmModal>
  );
}

export function Erased({ result }: { result: PrivacyErasure }) {
  const counts = Object.entries(result.erased).filter(([, n]) => n > 0);
  if (!result.held) {
    return (
      <Alert variant="secondary" className="staff-privacy__erased">
        Nothing was held about this person: nothing was erased.
      </Alert>
    );
  }
  return (
    <Alert variant="success" className="staff-privacy__erased">
      <h3 className="h6">Personal data erased</h3>
      <ul className="mb-2">
        {counts.map(([category, n]) => (
          <li key={category}>
            {category}: {n}
          </li>
        ))}
      </ul>
      {result.orderIds.length > 0 ? (
        <p className="mb-0">
          Erase the guest in the ticketing system too, or its next feed of these orders brings the names back:{' '}
          <strong>{result.orderIds.join(', ')}</strong>.
        </p>
      ) : null}
    </Alert>
  );
}

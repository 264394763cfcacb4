// The Loyalty tab's exports (Loyalty Export): every member with balance and tier, and the
// ledger between two operating days (both included), each a CSV the server streams.
import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { LOYALTY_LEDGER_EXPORT_API, LOYALTY_MEMBERS_EXPORT_API } from '@boardwalk/contract/staff-loyalty';
import { ExportButton } from '../resources/export-button.tsx';

/** Today as the browser's calendar date (YYYY-MM-DD). */
const today = () => new Date().toLocaleDateString('en-CA');

export function LoyaltyExports() {
  const id = useId();
  const [from, setFrom] = useState(() => today().slice(0, 8) + '01');
  const [to, setTo] = useState(today);
  return (
    <section aria-labelledby={`${id}-heading`} className="staff-loyalty__panel mt-4">
      <h3 id={`${id}-heading`} className="h5">
        Exports
      </h3>
      <div className="d-flex flex-wrap align-items-end gap-3">
        <ExportButton path={LOYALTY_MEMBERS_EXPORT_API} fallbackName="loyalty-members.csv" label="Export members" />
        <Form.Group controlId={`${id}-from`}>
          <Form.Label>Ledger from</Form.Label>
          <Form.Control type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} size="sm" />
        </Form.Group>
        <Form.Group controlId={`${id}-to`}>
          <Form.Label>to</Form.Label>
          <Form.Control type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} size="sm" />
        </Form.Group>
        <ExportButton
          path={`${LOYALTY_LEDGER_EXPORT_API}?${new URLSearchParams({ from, to })}`}
          fallbackName="loyalty-ledger.csv"
          label="Export ledger"
        />
      </div>
    </section>
  );
}

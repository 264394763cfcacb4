import { useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useIMask } from 'react-imask';
import type { TicketShare } from '@boardwalk/contract/pass';
import { shareFields, shareTexts, type ShareFields } from '@boardwalk/contract/share';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PERSON_FIELDS, personFieldErrors, PHONE_MASK, type PersonField, type PersonFieldErrors } from '../ticket/person-fields.ts';
import { shareErrorMessage, useShareMutations, type ShareTicket } from './share-api.ts';

type Field = PersonField;
type FieldErrors = PersonFieldErrors;
const FIELDS = PERSON_FIELDS;
const REQUIRED: Field[] = ['firstName', 'lastName', 'email'];

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

/** The share form: the contract's rules, field by field. */
const validate = (values: Values): FieldErrors => personFieldErrors(shareFields, values);

interface ShareModalProps {
  ticket: ShareTicket;
  /** The share to modify; null to set up a new one. */
  share: TicketShare | null;
  onClose: () => void;
  /** After a success, with its toast text. */
  onDone: (message: string) => void;
}

/** The modal that sets up (Set Up Ticket Share) or changes and stops (Modify Ticket Share) a share. */
export function ShareModal({ ticket, share, onClose, onDone }: ShareModalProps) {
  const [values, setValues] = useState<Values>(() => ({
    firstName: share?.firstName ?? '',
    lastName: share?.lastName ?? '',
    email: share?.email ?? '',
    phone: (share?.phone ?? '').replace(/\D/g, ''),
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { create, update, remove } = useShareMutations(ticket);
  const { ref: phoneRef } = useIMask<HTMLInputElement>(PHONE_MASK, {
    defaultUnmaskedValue: values.phone,
    onAccept: (_value, mask) => setValues((v) => ({ ...v, phone: mask.unmaskedValue })),
  });
  const formRef = useRef<HTMLFormElement>(null);
  const busy = create.isPending || update.isPending || remove.isPending;
  const missing = REQUIRED.some((field) => !values[field].trim());
  const [failure, setFailure] = useState<string | null>(null);

  const set = (field: Field) => (event: { target: HTMLInputElement }) => setValues((v) => ({ ...v, [field]: event.target.value }));
  const callbacks = (call: 'create' | 'update' | 'delete', done: string) => ({
    onSuccess: () => onDone(done),
    onError: (error: unknown) => setFailure(shareErrorMessage(error, call)),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validate(values);
    setErrors(found);
    setFailure(null);
    const firstInvalid = FIELDS.find((f) => found[f]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    const fields: ShareFields = { ...values, phone: values.phone || null };
    if (share) update.mutate({ share, fields }, callbacks('update', shareTexts.updated));
    else create.mutate(fields, callbacks('create', shareTexts.created));
  };

  const stop = () => {
    if (!share || busy) return;
    setFailure(null);
    remove.mutate(share, callbacks('delete', shareTexts.deleted));
  };

  const field = (name: Field, label: string, input: Record<string, unknown>, required: boolean) => {
    const errorId = errors[name] ? `share-${name}-error` : undefined;
    const hintId = name === 'phone' ? 'share-phone-hint' : undefined;
    return (
      <Form.Group controlId={`share-${name}`} className="mb-3">
        <Form.Label>
          {label}
          {required ? (
            <span className="share-required" aria-hidden="true">
              {' '}
              *
            </span>
          ) : (
            <span className="fw-normal"> (optional)</span>
          )}
        </Form.Label>
        <Form.Control
          name={name}
          required={required}
          aria-required={required || undefined}
          isInvalid={Boolean(errors[name])}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
          disabled={busy}
          {...input}
        />
        {hintId ? (
          <Form.Text id={hintId} className="field-hint">
            (999) 999-9999
          </Form.Text>
        ) : null}
        {errors[name] ? (
          <Form.Control.Feedback type="invalid" id={errorId}>
            {errors[name]}
          </Form.Control.Feedback>
        ) : null}
      </Form.Group>
    );
  };

  return (
    <Modal show onHide={busy ? () => undefined : onClose} centered aria-labelledby="share-modal-title" className="share-modal">
      <Form noValidate onSubmit={submit} ref={formRef}>
        <Modal.Header closeButton={!busy}>
          <Modal.Title id="share-modal-title" as="h2">
            {share ? shareTexts.editTitle : shareTexts.newTitle}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="share-modal__intro">
            {share
              ? 'Change the guest’s details. A new email address gets a new link, and the old link stops working.'
              : 'We will email the guest their own link to this pass.'}{' '}
            Fields marked * are required.
          </p>
          <LiveAlert message={failure} />
          <div className="row g-sm-3">
            <div className="col-sm-6">
              {field('firstName', 'First Name', { value: values.firstName, onChange: set('firstName'), autoComplete: 'off' }, true)}
            </div>
            <div className="col-sm-6">
              {field('lastName', 'Last Name', { value: values.lastName, onChange: set('lastName'), autoComplete: 'off' }, true)}
            </div>
          </div>
          {field('email', 'Email', { type: 'email', value: values.email, onChange: set('email'), autoComplete: 'off' }, true)}
          {field('phone', 'Phone', { ref: phoneRef, type: 'tel', inputMode: 'tel', autoComplete: 'off' }, false)}
        </Modal.Body>
        <Modal.Footer className="share-modal__actions">
          {share ? (
            <>
              <BusyButton variant="outline-danger" busy={remove.isPending} busyLabel="Stopping…" disabled={busy} onClick={stop}>
                {shareTexts.stop}
              </BusyButton>
              <BusyButton type="submit" variant="primary" busy={update.isPending} busyLabel="Updating…" disabled={busy || missing}>
                {shareTexts.update}
              </BusyButton>
            </>
          ) : (
            <>
              <Button variant="outline-secondary" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <BusyButton type="submit" variant="primary" busy={create.isPending} busyLabel="Sharing…" disabled={busy || missing}>
                {shareTexts.start}
              </BusyButton>
            </>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

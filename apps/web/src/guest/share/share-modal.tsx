import { useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useIMask } from 'react-imask';
import { useTranslations } from 'use-intl';
import type { TicketShare } from '@boardwalk/contract/pass';
import { shareFields, type ShareFields } from '@boardwalk/contract/share';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import {
  PERSON_FIELDS,
  personFieldProblems,
  PHONE_MASK,
  usePersonFieldErrors,
  type PersonField,
  type PersonProblems,
} from '../ticket/person-fields.ts';
import { useShareErrorMessage, useShareMutations, type ShareTicket } from './share-api.ts';

type Field = PersonField;
const FIELDS = PERSON_FIELDS;
const REQUIRED: Field[] = ['firstName', 'lastName', 'email'];

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

/** The share form: the contract's rules, field by field. */
const validate = (values: Values): PersonProblems => personFieldProblems(shareFields, values);

interface ShareModalProps {
  ticket: ShareTicket;
  /** The share to modify; null to set up a new one. */
  share: TicketShare | null;
  onClose: () => void;
  /** After a success, with what was done (its toast's text). */
  onDone: (done: 'created' | 'updated' | 'deleted') => void;
}

/** The modal that sets up (Set Up Ticket Share) or changes and stops (Modify Ticket Share) a share. */
export function ShareModal({ ticket, share, onClose, onDone }: ShareModalProps) {
  const [values, setValues] = useState<Values>(() => ({
    firstName: share?.firstName ?? '',
    lastName: share?.lastName ?? '',
    email: share?.email ?? '',
    phone: (share?.phone ?? '').replace(/\D/g, ''),
  }));
  const t = useTranslations('share');
  const person = useTranslations('ticket.person');
  const shareErrorMessage = useShareErrorMessage();
  const wordProblems = usePersonFieldErrors({ sayLimit: true });
  const [problems, setProblems] = useState<PersonProblems>({});
  const errors = wordProblems(problems);
  const { create, update, remove } = useShareMutations(ticket);
  const { ref: phoneRef } = useIMask<HTMLInputElement>(PHONE_MASK, {
    defaultUnmaskedValue: values.phone,
    onAccept: (_value, mask) => setValues((v) => ({ ...v, phone: mask.unmaskedValue })),
  });
  const formRef = useRef<HTMLFormElement>(null);
  const busy = create.isPending || update.isPending || remove.isPending;
  const missing = REQUIRED.some((field) => !values[field].trim());
  // The failed call and its error, worded as the modal renders.
  const [failure, setFailure] = useState<{ call: 'create' | 'update' | 'delete'; error: unknown } | null>(null);

  const set = (field: Field) => (event: { target: HTMLInputElement }) => setValues((v) => ({ ...v, [field]: event.target.value }));
  const callbacks = (call: 'create' | 'update' | 'delete', done: 'created' | 'updated' | 'deleted') => ({
    onSuccess: () => onDone(done),
    onError: (error: unknown) => setFailure({ call, error }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validate(values);
    setProblems(found);
    setFailure(null);
    const firstInvalid = FIELDS.find((f) => found[f]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    const fields: ShareFields = { ...values, phone: values.phone || null };
    if (share) update.mutate({ share, fields }, callbacks('update', 'updated'));
    else create.mutate(fields, callbacks('create', 'created'));
  };

  const stop = () => {
    if (!share || busy) return;
    setFailure(null);
    remove.mutate(share, callbacks('delete', 'deleted'));
  };

  const field = (name: Field, input: Record<string, unknown>, required: boolean) => {
    const label = person(name);
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
            <span className="fw-normal"> {person('optional')}</span>
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
            {person('phoneHint')}
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
        <Modal.Header closeButton={!busy} closeLabel={t('close')}>
          <Modal.Title id="share-modal-title" as="h2">
            {share ? t('editTitle') : t('newTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="share-modal__intro">
            {share ? t('editIntro') : t('newIntro')} {t('requiredNote')}
          </p>
          <LiveAlert message={failure && shareErrorMessage(failure.error, failure.call)} />
          <div className="row g-sm-3">
            <div className="col-sm-6">
              {field('firstName', { value: values.firstName, onChange: set('firstName'), autoComplete: 'off' }, true)}
            </div>
            <div className="col-sm-6">
              {field('lastName', { value: values.lastName, onChange: set('lastName'), autoComplete: 'off' }, true)}
            </div>
          </div>
          {field('email', { type: 'email', value: values.email, onChange: set('email'), autoComplete: 'off' }, true)}
          {field('phone', { ref: phoneRef, type: 'tel', inputMode: 'tel', autoComplete: 'off' }, false)}
        </Modal.Body>
        <Modal.Footer className="share-modal__actions">
          {share ? (
            <>
              <BusyButton variant="outline-danger" busy={remove.isPending} busyLabel={t('stopping')} disabled={busy} onClick={stop}>
                {t('stop')}
              </BusyButton>
              <BusyButton type="submit" variant="primary" busy={update.isPending} busyLabel={t('updating')} disabled={busy || missing}>
                {t('update')}
              </BusyButton>
            </>
          ) : (
            <>
              <Button variant="outline-secondary" onClick={onClose} disabled={busy}>
                {t('cancel')}
              </Button>
              <BusyButton type="submit" variant="primary" busy={create.isPending} busyLabel={t('sharing')} disabled={busy || missing}>
                {t('start')}
              </BusyButton>
            </>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

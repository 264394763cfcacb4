import { useRef, useState, type FormEvent, type RefObject } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useIMask } from 'react-imask';
import { consentWording, registrationFields, type PassOrder } from '@boardwalk/contract/pass';
import { ApiRequestError } from '../../lib/api-client.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { PassCredentials } from '../ticket/pass-route.ts';
import { registerErrorMessage } from '../ticket/pass-rules.ts';
import { PERSON_FIELDS, personFieldErrors, PHONE_MASK, type PersonField, type PersonFieldErrors } from '../ticket/person-fields.ts';
import { useRegisterPass } from './register-pass.ts';

type Field = PersonField;
type FieldErrors = PersonFieldErrors;
const FIELDS = PERSON_FIELDS;
const REQUIRED: Record<Field, string> = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Email is required',
  phone: 'Phone is required',
};

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  optInEmailMarketing: boolean;
  optInSMSMarketing: boolean;
}

/** First name, last name, email and phone all required; the contract's schema for the rest. */
function validate(values: Values): FieldErrors {
  const errors = personFieldErrors(registrationFields, values);
  for (const field of FIELDS) if (!values[field].trim()) errors[field] = REQUIRED[field];
  return errors;
}

/** A stored US number may carry its country code; the mask holds ten digits. */
const phoneDigits = (phone: string | null) => (phone ?? '').replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

interface RegistrationFormProps {
  order: PassOrder;
  credentials: PassCredentials;
  /** Set when the guest chose Edit Registration: the form can be closed without saving. */
  onCancel?: (() => void) | undefined;
  onSaved: () => void;
  onStartOver: () => void;
}

/** The registration form; its own chunk (with the phone mask), loaded when a pass is looked up. */
export default function RegistrationForm({ order, credentials, onCancel, onSaved, onStartOver }: RegistrationFormProps) {
  const site = useSiteInfo();
  // The server's wording (what a registration records); the same function's until the site settings load.
  const consents = site?.consents ?? consentWording(site?.brandName ?? 'us');
  const [values, setValues] = useState<Values>(() => ({
    firstName: order.firstName ?? '',
    lastName: order.lastName ?? '',
    email: order.email ?? '',
    phone: phoneDigits(order.phone),
    optInEmailMarketing: order.optInEmailMarketing,
    optInSMSMarketing: order.optInSMSMarketing,
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const firstNameRef = useRef<HTMLInputElement>(null);
  const lastNameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const { ref: phoneRef } = useIMask<HTMLInputElement>(PHONE_MASK, {
    defaultUnmaskedValue: values.phone,
    onAccept: (_value, mask) => setValues((v) => ({ ...v, phone: mask.unmaskedValue })),
  });
  const register = useRegisterPass(credentials);

  const set = (field: keyof Values) => (event: { target: HTMLInputElement }) =>
    setValues((v) => ({ ...v, [field]: event.target.type === 'checkbox' ? event.target.checked : event.target.value }));
  /** A person field's input (the masked phone's aside): its id and name, its value, error and change. */
  const bound = (field: Exclude<Field, 'phone'>) => ({
    id: field,
    name: field,
    value: values[field],
    error: errors[field],
    onChange: set(field),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    const firstInvalid = FIELDS.find((f) => found[f]);
    if (firstInvalid) {
      const refs: Record<Field, RefObject<HTMLInputElement | null>> = {
        firstName: firstNameRef,
        lastName: lastNameRef,
        email: emailRef,
        phone: phoneRef,
      };
      return refs[firstInvalid].current?.focus();
    }
    register.mutate(
      { orderId: order.orderId, barcode: order.barcode, ...values },
      {
        onSuccess: onSaved,
        onError: (error) => {
          // The server's field messages go next to their fields.
          if (error instanceof ApiRequestError && error.body?.fields) {
            const serverErrors: FieldErrors = {};
            for (const { path, message } of error.body.fields) {
              const field = path.split('.')[0] as Field;
              if (FIELDS.includes(field)) serverErrors[field] ??= message;
            }
            setErrors(serverErrors);
          }
        },
      },
    );
  };

  return (
    <section className="panel" aria-labelledby="registration-heading">
      <PageHeading id="registration-heading">{onCancel ? 'Edit Registration' : 'Register Your Pass'}</PageHeading>
      <p className="panel__intro">Tell us who this ticket belongs to. All fields are required unless marked optional.</p>
      <LiveAlert message={register.isError ? registerErrorMessage(register.error) : null} />
      <Form noValidate onSubmit={submit}>
        <div className="row g-sm-3">
          <TextField className="col-sm-6 mb-3 mb-sm-0" id="reg-orderId" label="Order ID" value={order.orderId} disabled readOnly />
          <TextField className="col-sm-6 mb-3" id="reg-barcode" label="Barcode" value={order.barcode} disabled readOnly />
        </div>
        <div className="row g-sm-3">
          <TextField
            ref={firstNameRef}
            className="col-sm-6 mb-3 mb-sm-0"
            label="First Name"
            autoComplete="given-name"
            {...bound('firstName')}
          />
          <TextField ref={lastNameRef} className="col-sm-6 mb-3" label="Last Name" autoComplete="family-name" {...bound('lastName')} />
        </div>
        <div className="row g-sm-3">
          <TextField ref={emailRef} className="col-sm-6 mb-3 mb-sm-0" type="email" label="Email" autoComplete="email" {...bound('email')} />
          <TextField
            ref={phoneRef}
            className="col-sm-6 mb-3"
            id="phone"
            name="phone"
            type="tel"
            label="Phone"
            hint="(999) 999-9999"
            inputMode="tel"
            autoComplete="tel-national"
            error={errors.phone}
          />
        </div>
        <fieldset className="opt-ins">
          <legend className="opt-ins__legend">
            News and offers <span className="fw-normal">(optional)</span>
          </legend>
          <Form.Check
            id="optInEmailMarketing"
            name="optInEmailMarketing"
            className="mb-3"
            checked={values.optInEmailMarketing}
            onChange={set('optInEmailMarketing')}
            label={consents.email.label}
          />
          <Form.Check id="optInSMSMarketing" className="mb-0">
            <Form.Check.Input
              name="optInSMSMarketing"
              checked={values.optInSMSMarketing}
              onChange={set('optInSMSMarketing')}
              aria-describedby="sms-consent"
            />
            <Form.Check.Label>{consents.sms.label}</Form.Check.Label>
            <p id="sms-consent" className="opt-ins__consent">
              {consents.sms.disclosure}
            </p>
          </Form.Check>
        </fieldset>
        <div className="actions">
          <BusyButton type="submit" variant="primary" size="lg" busy={register.isPending} busyLabel="Registering…">
            Register
          </BusyButton>
          {onCancel ? (
            <Button variant="outline-secondary" size="lg" onClick={onCancel}>
              Cancel
            </Button>
          ) : (
            <Button variant="outline-secondary" size="lg" onClick={onStartOver}>
              Start Over
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}

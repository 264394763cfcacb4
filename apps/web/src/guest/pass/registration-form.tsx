import { useRef, useState, type FormEvent, type RefObject } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useIMask } from 'react-imask';
import { useTranslations } from 'use-intl';
import { registrationFields, SMS_SHORT_CODE, type PassOrder } from '@boardwalk/contract/pass';
import { ApiRequestError } from '../../lib/api-client.ts';
import { useSiteInfo } from '../../lib/site.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { PassCredentials } from '../ticket/pass-route.ts';
import { useRegisterErrorMessage } from '../ticket/pass-errors.ts';
import {
  PERSON_FIELDS,
  personFieldProblems,
  PHONE_MASK,
  usePersonFieldErrors,
  type PersonField,
  type PersonFieldErrors,
  type PersonProblems,
} from '../ticket/person-fields.ts';
import { useRegisterPass } from './register-pass.ts';

type Field = PersonField;
type FieldErrors = PersonFieldErrors;
const FIELDS = PERSON_FIELDS;

interface Values {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  optInEmailMarketing: boolean;
  optInSMSMarketing: boolean;
}

/** First name, last name, email and phone all required; the contract's schema for the rest. */
function validate(values: Values): PersonProblems {
  const problems = personFieldProblems(registrationFields, values);
  for (const field of FIELDS) if (!values[field].trim()) problems[field] = { field, kind: 'required' };
  return problems;
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
  const t = useTranslations('pass');
  const ticket = useTranslations('ticket');
  const errorWords = useTranslations('errors');
  const registerErrorMessage = useRegisterErrorMessage();
  const wordProblems = usePersonFieldErrors({ sayLimit: false });
  // The consents in the page's language, word for word what the server records with a
  // registration in it (the call's Accept-Language is the page's language).
  const consent = { brand: site?.brandName ?? t('consent.us'), shortCode: SMS_SHORT_CODE };
  const [values, setValues] = useState<Values>(() => ({
    firstName: order.firstName ?? '',
    lastName: order.lastName ?? '',
    email: order.email ?? '',
    phone: phoneDigits(order.phone),
    optInEmailMarketing: order.optInEmailMarketing,
    optInSMSMarketing: order.optInSMSMarketing,
  }));
  // The problems found here, and the fields the server refused: worded as the page renders.
  const [problems, setProblems] = useState<PersonProblems>({});
  const [refused, setRefused] = useState<Field[]>([]);
  const errors: FieldErrors = { ...wordProblems(problems) };
  for (const field of refused) errors[field] ??= errorWords('VALIDATION_FAILED');
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
    setProblems(found);
    setRefused([]);
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
          // The fields the server refused are marked next to them.
          if (error instanceof ApiRequestError && error.body?.fields) {
            setProblems({});
            setRefused(error.body.fields.map(({ path }) => path.split('.')[0] as Field).filter((field) => FIELDS.includes(field)));
          }
        },
      },
    );
  };

  return (
    <section className="panel" aria-labelledby="registration-heading">
      <PageHeading id="registration-heading">{onCancel ? t('registration.editHeading') : t('registration.heading')}</PageHeading>
      <p className="panel__intro">{t('registration.intro')}</p>
      <LiveAlert message={register.isError ? registerErrorMessage(register.error) : null} />
      <Form noValidate onSubmit={submit}>
        <div className="row g-sm-3">
          <TextField
            className="col-sm-6 mb-3 mb-sm-0"
            id="reg-orderId"
            label={ticket('order.orderId')}
            value={order.orderId}
            disabled
            readOnly
          />
          <TextField className="col-sm-6 mb-3" id="reg-barcode" label={ticket('order.barcode')} value={order.barcode} disabled readOnly />
        </div>
        <div className="row g-sm-3">
          <TextField
            ref={firstNameRef}
            className="col-sm-6 mb-3 mb-sm-0"
            label={ticket('person.firstName')}
            autoComplete="given-name"
            {...bound('firstName')}
          />
          <TextField
            ref={lastNameRef}
            className="col-sm-6 mb-3"
            label={ticket('person.lastName')}
            autoComplete="family-name"
            {...bound('lastName')}
          />
        </div>
        <div className="row g-sm-3">
          <TextField
            ref={emailRef}
            className="col-sm-6 mb-3 mb-sm-0"
            type="email"
            label={ticket('person.email')}
            autoComplete="email"
            {...bound('email')}
          />
          <TextField
            ref={phoneRef}
            className="col-sm-6 mb-3"
            id="phone"
            name="phone"
            type="tel"
            label={ticket('person.phone')}
            hint={ticket('person.phoneHint')}
            inputMode="tel"
            autoComplete="tel-national"
            error={errors.phone}
          />
        </div>
        <fieldset className="opt-ins">
          <legend className="opt-ins__legend">
            {t('registration.optIns')} <span className="fw-normal">{ticket('person.optional')}</span>
          </legend>
          <Form.Check
            id="optInEmailMarketing"
            name="optInEmailMarketing"
            className="mb-3"
            checked={values.optInEmailMarketing}
            onChange={set('optInEmailMarketing')}
            label={t('consent.emailLabel', consent)}
          />
          <Form.Check id="optInSMSMarketing" className="mb-0">
            <Form.Check.Input
              name="optInSMSMarketing"
              checked={values.optInSMSMarketing}
              onChange={set('optInSMSMarketing')}
              aria-describedby="sms-consent"
            />
            <Form.Check.Label>{t('consent.smsLabel', consent)}</Form.Check.Label>
            <p id="sms-consent" className="opt-ins__consent">
              {t('consent.smsDisclosure', consent)}
            </p>
          </Form.Check>
        </fieldset>
        <div className="actions">
          <BusyButton type="submit" variant="primary" size="lg" busy={register.isPending} busyLabel={t('registration.busy')}>
            {t('registration.submit')}
          </BusyButton>
          {onCancel ? (
            <Button variant="outline-secondary" size="lg" onClick={onCancel}>
              {t('registration.cancel')}
            </Button>
          ) : (
            <Button variant="outline-secondary" size="lg" onClick={onStartOver}>
              {ticket('startOver')}
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}

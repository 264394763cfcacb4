// The sign-in forms both audiences use (a guest on /loyalty/, staff on the Loyalty tab): the
// email whose account is looked up, and the first and last name that create one when no
// account uses it. The caller makes the calls and decides what each answer does; the form
// holds the field rules (a valid email, both names) and what each audience words its own way
// comes in as props and children (the heading, the failure shown above the fields).
import { useState, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import type { ButtonProps } from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { EMAIL_PATTERN } from '@boardwalk/contract/pass';
import type { Birthday } from '@boardwalk/contract/loyalty';
import { BusyButton } from '../ui/busy-button.tsx';
import { BirthdayFields, birthdayOf, NO_BIRTHDAY, type BirthdayValue } from './birthday-fields.tsx';
import { TextField } from '../ui/text-field.tsx';

interface FormAttributes {
  /** The form's own attributes (a panel's class and label). */
  className?: string;
  'aria-labelledby'?: string;
  /** Above the fields: a heading, a note, the failure. */
  children?: ReactNode;
}

interface SubmitButton {
  label: string;
  busyLabel: string;
  busy: boolean;
  /** The button's look: variant, size, class. */
  look?: Pick<ButtonProps, 'variant' | 'size' | 'className'>;
}

/** The email field and its button; submits a valid email only, trimmed. */
export function EmailForm({
  id,
  label,
  autoComplete,
  email,
  onEmailChange,
  onSubmit,
  submit,
  children,
  ...formProps
}: FormAttributes & {
  id: string;
  /** The field's label ("Email"). */
  label: string;
  autoComplete: string;
  email: string;
  onEmailChange: (email: string) => void;
  onSubmit: (email: string) => void;
  submit: SubmitButton;
}) {
  const valid = EMAIL_PATTERN.test(email.trim());
  const submitted = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (valid) onSubmit(email.trim());
  };
  return (
    <Form noValidate onSubmit={submitted} {...formProps}>
      {children}
      <TextField
        id={id}
        type="email"
        label={label}
        autoComplete={autoComplete}
        value={email}
        onChange={(e) => onEmailChange(e.target.value)}
      />
      <BusyButton type="submit" {...submit.look} disabled={!valid} busy={submit.busy} busyLabel={submit.busyLabel}>
        {submit.label}
      </BusyButton>
    </Form>
  );
}

export interface MemberNames {
  firstName: string;
  lastName: string;
  /** Given when the form asks for it (`birthday`): null for none. */
  birthday?: Birthday | null;
}

/** First and last name, Start Over and the button; submits both names, trimmed, once both are given. */
export function NamesForm({
  ids,
  labels,
  autoComplete,
  onStartOver,
  onSubmit,
  submit,
  birthday: asksBirthday,
  children,
  ...formProps
}: FormAttributes & {
  ids: { firstName: string; lastName: string };
  /** Also asks for the birthday (optional: both selects or neither). */
  birthday?: Omit<React.ComponentProps<typeof BirthdayFields>, 'value' | 'onChange'>;
  /** The fields' labels and the Start Over button's. */
  labels: { firstName: string; lastName: string; startOver: string };
  autoComplete: { firstName: string; lastName: string };
  onStartOver: () => void;
  onSubmit: (names: MemberNames) => void;
  submit: SubmitButton;
}) {
  const [names, setNames] = useState({ firstName: '', lastName: '' });
  const [born, setBorn] = useState<BirthdayValue>(NO_BIRTHDAY);
  const birthday = birthdayOf(born);
  const ready = names.firstName.trim() !== '' && names.lastName.trim() !== '' && birthday !== undefined;
  const submitted = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    onSubmit({ firstName: names.firstName.trim(), lastName: names.lastName.trim(), ...(asksBirthday && { birthday }) });
  };
  return (
    <Form noValidate onSubmit={submitted} {...formProps}>
      {children}
      <TextField
        id={ids.firstName}
        label={labels.firstName}
        autoComplete={autoComplete.firstName}
        value={names.firstName}
        onChange={(e) => setNames({ ...names, firstName: e.target.value })}
      />
      <TextField
        id={ids.lastName}
        label={labels.lastName}
        autoComplete={autoComplete.lastName}
        value={names.lastName}
        onChange={(e) => setNames({ ...names, lastName: e.target.value })}
      />
      {asksBirthday ? <BirthdayFields {...asksBirthday} value={born} onChange={setBorn} /> : null}
      <div className="actions">
        <Button variant="outline-secondary" onClick={onStartOver}>
          {labels.startOver}
        </Button>
        <BusyButton type="submit" {...submit.look} disabled={!ready} busy={submit.busy} busyLabel={submit.busyLabel}>
          {submit.label}
        </BusyButton>
      </div>
    </Form>
  );
}

// The Privacy tab's search: by email, phone or barcode, or by name with an order id, a barcode
// or the order's date (a ticket holder with no email or phone). The query is checked with the
// contract's schema before it is sent; its first problem shows under the value field.
import { useState, type FormEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { privacyQuery } from '@boardwalk/contract/privacy';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';

const KINDS = {
  email: { label: 'Email', hint: 'The address as the guest gave it', input: 'email' },
  phone: { label: 'Phone', hint: 'Any formatting; matched by its last 10 digits', input: 'tel' },
  barcode: { label: 'Barcode', hint: 'A ticket or pass barcode: finds its guest', input: 'text' },
  name: { label: 'Name', hint: '', input: 'text' },
} as const;
type Kind = keyof typeof KINDS;

/** What narrows a search by name to the tickets of one person. */
const SCOPES = {
  orderId: { label: 'Order ID', hint: 'The 8-digit order id', input: 'text' },
  barcode: { label: 'Barcode', hint: "The holder's ticket or pass barcode", input: 'text' },
  orderDate: { label: 'Order Date', hint: 'The day the order was placed (UTC)', input: 'date' },
} as const;
type Scope = keyof typeof SCOPES;

/** A select of the keys of a table of choices, each shown by its label. */
function ChoiceField<Key extends string>({
  id,
  label,
  value,
  choices,
  onChange,
}: {
  id: string;
  label: string;
  value: Key;
  choices: Record<Key, { label: string }>;
  onChange: (value: Key) => void;
}) {
  return (
    <Form.Group controlId={id} className="mb-3">
      <Form.Label>{label}</Form.Label>
      <Form.Select value={value} onChange={(e) => onChange(e.target.value as Key)}>
        {(Object.keys(choices) as Key[]).map((key) => (
          <option key={key} value={key}>
            {choices[key].label}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}

/** The fields of a search by name: first and last name, and what narrows it. */
function NameFields({
  firstName,
  lastName,
  scope,
  onFirstName,
  onLastName,
  onScope,
}: {
  firstName: string;
  lastName: string;
  scope: Scope;
  onFirstName: (value: string) => void;
  onLastName: (value: string) => void;
  onScope: (scope: Scope) => void;
}) {
  return (
    <>
      <p className="small text-body-secondary">
        A ticket holder known by name only (no email or phone): their name and one of the following.
      </p>
      {(
        [
          ['privacy-first-name', 'First Name', firstName, onFirstName],
          ['privacy-last-name', 'Last Name', lastName, onLastName],
        ] as const
      ).map(([id, label, value, onChange]) => (
        <TextField key={id} id={id} label={label} autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} />
      ))}
      <ChoiceField id="privacy-scope" label="With" value={scope} choices={SCOPES} onChange={onScope} />
    </>
  );
}

export function PrivacyFindForm({
  busy,
  error,
  onFind,
  onClearError,
}: {
  busy: boolean;
  /** The server's answer to the last search, when it refused it. */
  error: string | undefined;
  /** Called with a query the contract accepts. */
  onFind: (body: object) => void;
  onClearError: () => void;
}) {
  const [kind, setKind] = useState<Kind>('email');
  const [value, setValue] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [scope, setScope] = useState<Scope>('orderId');
  const [invalid, setInvalid] = useState<string | undefined>();
  const clearErrors = () => {
    setInvalid(undefined);
    onClearError();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = kind === 'name' ? { firstName, lastName, [scope]: value } : { [kind]: value };
    const parsed = privacyQuery.safeParse(body);
    if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message);
    clearErrors();
    onFind(body);
  };
  const shown = kind === 'name' ? SCOPES[scope] : KINDS[kind];

  return (
    <Form noValidate onSubmit={submit} className="staff-privacy__form mb-4" aria-labelledby="privacy-find-heading">
      <h3 id="privacy-find-heading" className="h5">
        Find a person&apos;s data
      </h3>
      <ChoiceField
        id="privacy-kind"
        label="Find by"
        value={kind}
        choices={KINDS}
        onChange={(next) => {
          setKind(next);
          clearErrors();
        }}
      />
      {kind === 'name' ? (
        <NameFields
          firstName={firstName}
          lastName={lastName}
          scope={scope}
          onFirstName={setFirstName}
          onLastName={setLastName}
          onScope={(next) => {
            setScope(next);
            setValue('');
            clearErrors();
          }}
        />
      ) : null}
      <TextField
        id="privacy-value"
        label={shown.label}
        hint={shown.hint}
        type={shown.input}
        autoComplete="off"
        value={value}
        error={invalid ?? error}
        onChange={(e) => setValue(e.target.value)}
      />
      <BusyButton type="submit" busy={busy} busyLabel="Finding...">
        Find
      </BusyButton>
    </Form>
  );
}

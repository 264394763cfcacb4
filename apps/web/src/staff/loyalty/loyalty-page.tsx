// The Loyalty tab: the email box with Submit and the Account / Order Lookup; an unknown email
// opens the signup form; a known one (or Load Account) loads the account. The email and signup
// forms are the ones guests sign in with (loyalty/member-forms.tsx).
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import {
  SEARCH_MIN_ENABLED,
  SEARCH_MIN_SUBMIT,
  searchResults,
  staffLoyaltyMessages as texts,
  type SearchResult,
} from '@boardwalk/contract/staff-loyalty';
import { failedWith } from '../../lib/api-client.ts';
import { formatPhone } from '../../lib/format.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { LOYALTY } from '@boardwalk/contract/staff-loyalty-tabs';
import { LoyaltyExports } from './loyalty-exports.tsx';
import { EmailForm, NamesForm, type MemberNames } from '../../loyalty/member-forms.tsx';
import { api, loyaltyJson, loyaltyText } from './loyalty-api.ts';
import { LoyaltyAccount } from './loyalty-account.tsx';
import { useLoyaltyFailure } from './loyalty-errors.ts';
import { StaffTable } from '../resources/staff-table.tsx';

type Stage = { stage: 'lookup' } | { stage: 'signup'; email: string } | { stage: 'account'; userID: string; email: string };

export function LoyaltyPage({ user }: { user: StaffUser }) {
  const [stage, setStage] = useState<Stage>({ stage: 'lookup' });
  const startOver = () => setStage({ stage: 'lookup' });
  const load = (userID: string, email: string) => setStage({ stage: 'account', userID, email });

  return (
    <section aria-labelledby="loyalty-heading" className="staff-loyalty">
      <h2 id="loyalty-heading" className="h4 mb-3">
        Loyalty
      </h2>
      {stage.stage === 'lookup' ? (
        <>
          <LoyaltyLookup onFound={load} onUnknown={(email) => setStage({ stage: 'signup', email })} />
          {hasPermission(user, LOYALTY.export) ? <LoyaltyExports /> : null}
        </>
      ) : stage.stage === 'signup' ? (
        <LoyaltySignup email={stage.email} onStartOver={startOver} onCreated={(userID) => load(userID, stage.email)} />
      ) : (
        <LoyaltyAccount key={stage.userID} user={user} userID={stage.userID} email={stage.email} onChangeUser={startOver} />
      )}
    </section>
  );
}

function LoyaltyLookup({ onFound, onUnknown }: { onFound: (userID: string, email: string) => void; onUnknown: (email: string) => void }) {
  const fail = useLoyaltyFailure();
  const [email, setEmail] = useState('');
  const verify = useMutation({
    mutationFn: (value: string) => loyaltyText(`${api}verify`, 'POST', { email: value }),
    onSuccess: (userID, value) => onFound(userID, value),
    onError: (error, value) => {
      if (failedWith(error, 'NOT_FOUND')) onUnknown(value);
      else fail(error, texts.unableToSubmit);
    },
  });

  return (
    <div className="staff-loyalty__lookup">
      <EmailForm
        id="loyalty-email"
        label="Email"
        autoComplete="off"
        email={email}
        onEmailChange={setEmail}
        onSubmit={(value) => verify.mutate(value)}
        submit={{ label: 'Submit', busyLabel: 'Submitting...', busy: verify.isPending }}
        className="staff-loyalty__panel"
        aria-labelledby="loyalty-email-heading"
      >
        <h3 id="loyalty-email-heading" className="h5">
          Find or create an account
        </h3>
      </EmailForm>
      <AccountSearch onLoad={onFound} />
    </div>
  );
}

function AccountSearch({ onLoad }: { onLoad: (userID: string, email: string) => void }) {
  const fail = useLoyaltyFailure();
  const [term, setTerm] = useState('');
  const [short, setShort] = useState(false);
  const search = useMutation({
    mutationFn: (searchTerm: string) => loyaltyJson(`${api}search/`, searchResults, 'POST', { searchTerm }),
    onError: (error) => fail(error, texts.unableToSearch),
  });
  const trimmed = term.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Search is enabled at 3 characters; the form submits at 4.
    if (trimmed.length < SEARCH_MIN_SUBMIT) return setShort(true);
    setShort(false);
    search.mutate(trimmed);
  };
  const clear = () => {
    setTerm('');
    setShort(false);
    search.reset();
  };
  const results = search.data;

  return (
    <Form noValidate onSubmit={submit} className="staff-loyalty__panel" aria-labelledby="loyalty-search-heading">
      <h3 id="loyalty-search-heading" className="h5">
        Account / Order Lookup
      </h3>
      <TextField
        id="loyalty-search"
        label="Search Term"
        hint="Email, name, phone, zip, member number, order ID, barcode, check or reservation number"
        autoComplete="off"
        value={term}
        error={short ? `Enter at least ${SEARCH_MIN_SUBMIT} characters to search` : undefined}
        onChange={(e) => {
          setTerm(e.target.value);
          setShort(false);
        }}
      />
      <div className="actions mb-3">
        <Button variant="outline-secondary" onClick={clear}>
          Clear
        </Button>
        <BusyButton type="submit" disabled={trimmed.length < SEARCH_MIN_ENABLED} busy={search.isPending} busyLabel="Searching...">
          Search
        </BusyButton>
      </div>
      {results ? <SearchResults results={results} onLoad={onLoad} /> : null}
    </Form>
  );
}

function SearchResults({ results, onLoad }: { results: SearchResult[]; onLoad: (userID: string, email: string) => void }) {
  if (results.length === 0) return <p className="mb-0">No accounts match this search.</p>;
  return (
    <StaffTable
      label="Accounts found"
      caption="Accounts found"
      columns={['Account', 'Email', 'Name', 'Phone', 'Zip']}
      actions
      className="staff-loyalty__results align-middle mb-0"
    >
      {results.map((r) => (
        <tr key={r.userID}>
          <td className="text-nowrap">{r.STRACCOUNTID}</td>
          <td className="text-break">{r.STREMAIL}</td>
          <td>
            {r.STRFIRSTNAME} {r.STRLASTNAME}
          </td>
          <td className="text-nowrap">{r.STRPHONEDAY ? formatPhone(r.STRPHONEDAY) : ''}</td>
          <td>{r.STRZIP}</td>
          <td>
            <Button size="sm" variant="outline-primary" className="text-nowrap" onClick={() => onLoad(r.userID, r.STREMAIL)}>
              Load Account
            </Button>
          </td>
        </tr>
      ))}
    </StaffTable>
  );
}

function LoyaltySignup({ email, onStartOver, onCreated }: { email: string; onStartOver: () => void; onCreated: (userID: string) => void }) {
  const toast = useToast();
  const fail = useLoyaltyFailure();
  const create = useMutation({
    mutationFn: (names: MemberNames) => loyaltyText(`${api}create`, 'POST', { email, ...names }),
    onSuccess: onCreated,
    onError: (error) => {
      // A 409 on create (the email has an account) has its own toast.
      if (failedWith(error, 'CONFLICT')) toast(texts.unableToCreate, 'danger');
      else fail(error, texts.unableToSubmit);
    },
  });
  return (
    <NamesForm
      ids={{ firstName: 'loyalty-first-name', lastName: 'loyalty-last-name' }}
      labels={{ firstName: 'First Name', lastName: 'Last Name', startOver: 'Start Over' }}
      autoComplete={{ firstName: 'off', lastName: 'off' }}
      onStartOver={onStartOver}
      onSubmit={(names) => create.mutate(names)}
      submit={{ label: 'Submit', busyLabel: 'Submitting...', busy: create.isPending }}
      className="staff-loyalty__panel staff-loyalty__signup"
      aria-labelledby="loyalty-signup-heading"
    >
      <h3 id="loyalty-signup-heading" className="h5">
        New Account
      </h3>
      <p>
        No account uses <strong className="text-break">{email}</strong>. Create one:
      </p>
    </NamesForm>
  );
}

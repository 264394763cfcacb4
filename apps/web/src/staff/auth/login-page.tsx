// The team member login: username and password, with "Remember my username on this device".
import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Navigate } from 'react-router';
import { loginStaff } from './staff-api.ts';
import { getRememberedUsername, isAdmin, rememberUsername, storeStaffUser, useStaffUser } from './staff-session.ts';
import { useStaffLogout } from './use-staff-logout.ts';

export const LOGIN_FAILED = 'Unable to Login';

/** A labelled login field. */
function LoginField({
  id,
  label,
  onChange,
  ...input
}: {
  id: string;
  label: string;
  ref: Ref<HTMLInputElement>;
  type: string;
  name: string;
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Form.Group controlId={id} className="mb-3">
      <Form.Label>{label}</Form.Label>
      <Form.Control {...input} onChange={(e) => onChange(e.target.value)} />
    </Form.Group>
  );
}

export function LoginPage() {
  const user = useStaffUser();
  useEffect(() => {
    document.title = 'Team Member Login';
  }, []);
  // The form shows only while no user is stored; a member holding the admin area goes to /admin.
  if (user && isAdmin(user)) return <Navigate to="/admin" replace />;
  return (
    <main className="staff-login container py-5" id="main">
      <div className="row">
        <div className="col-12 col-md-4 offset-md-4">{user ? <NoAdminAccess username={user.teamMemberUsername} /> : <LoginForm />}</div>
      </div>
    </main>
  );
}

/** A stored user without _Admin has nowhere to go: /admin would send them back here. */
function NoAdminAccess({ username }: { username: string }) {
  const logout = useStaffLogout();
  return (
    <section aria-labelledby="staff-login-heading">
      <h1 id="staff-login-heading" className="h3 mb-3">
        Team Member Login
      </h1>
      <p>You are logged in as {username}, who may not use the admin area.</p>
      <Button variant="primary" onClick={logout}>
        Logout
      </Button>
    </section>
  );
}

function LoginForm() {
  const [username, setUsername] = useState(() => getRememberedUsername() ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => getRememberedUsername() !== null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // A remembered username: the password is what is left to type.
    (username ? passwordRef : usernameRef).current?.focus();
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const canSubmit = !submitting && username.trim() !== '' && password !== '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canSubmit) return;
    const name = username.trim();
    rememberUsername(name, remember);
    setSubmitting(true);
    setError(null);
    try {
      const result = await loginStaff(name, password);
      setError(null);
      storeStaffUser(result);
    } catch (failure) {
      console.warn('Staff login failed', failure instanceof Error ? failure.message : failure);
      setError(LOGIN_FAILED);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <section aria-labelledby="staff-login-heading">
      <h1 id="staff-login-heading" className="h3 mb-4">
        Team Member Login
      </h1>
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <LoginField
          id="staff-username"
          label="Email"
          ref={usernameRef}
          type="email"
          name="username"
          autoComplete="username"
          value={username}
          onChange={setUsername}
        />
        <LoginField
          id="staff-password"
          label="Password"
          ref={passwordRef}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <Form.Check
          id="staff-remember"
          className="mb-3"
          label="Remember my username on this device"
          checked={remember}
          onChange={(e) => setRemember(e.target.checked)}
        />
        <div role="alert" aria-atomic="true">
          {error ? <p className="staff-login__error">{error}</p> : null}
        </div>
        <Button type="submit" variant="primary" size="lg" className="w-100" disabled={!canSubmit} aria-busy={submitting}>
          {submitting ? <img src="/staff-spinner.svg" alt="" height={20} width={20} className="staff-login__spinner me-2" /> : null}
          Login
        </Button>
      </Form>
    </section>
  );
}

// The claim form both audiences use (a guest on /loyalty/tickets and the others, staff on the
// Loyalty tab for a member): the order, check or reservation number, typed or scanned with the
// camera (food and beverage, tickets for guests), and when several checks share a number, the
// list to pick one from. The caller sends the claim and says what the answer was; the texts,
// the buttons' place and the candidates' look stay each audience's.
import { lazy, Suspense, useRef, useState, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { CheckCandidate } from '@boardwalk/contract/loyalty';
import { BusyButton } from '../ui/busy-button.tsx';
import { TextField } from '../ui/text-field.tsx';

// The scanner and its decoder are fetched when the camera opens.
const BarcodeScanner = lazy(() => import('./barcode-scanner.tsx').then((m) => ({ default: m.BarcodeScanner })));

export interface CandidatesProps {
  candidates: CheckCandidate[];
  busy: boolean;
  onAdd: (checkID: string) => void;
}

export interface ScanTexts {
  title: string;
  button: string;
  hint: string;
  close: string;
}

interface ClaimFormProps {
  /** The field's id. */
  id: string;
  label: string;
  hint?: string;
  /** The camera scanner's words (its title, the button that opens it, its hint and Close); offered when set. */
  scan?: ScanTexts | undefined;
  initial?: string;
  /**
   * Sends the claim of the value (with the check picked among several): resolves to the
   * candidate checks when several share the number, to null once claimed (the field empties);
   * rejects when it failed (the caller shows why).
   */
  claim: (value: string, checkID?: string) => Promise<CheckCandidate[] | null>;
  busy: boolean;
  submit: { label: string; busyLabel: string; variant?: string };
  /** Where Scan Barcode sits: on its own row above the actions (a page) or first among them (a panel). */
  scanPlacement: 'row' | 'actions';
  /** Before the submit button (a Back link). */
  back?: ReactNode;
  Candidates: (props: CandidatesProps) => ReactNode;
  /** The form's own attributes (a panel's class and label). */
  className?: string;
  'aria-labelledby'?: string;
  /** Above the field: a heading, the failure. */
  children?: ReactNode;
  /** Called at each submit, before the claim is sent (to clear a shown failure). */
  onSubmit?: () => void;
}

export function ClaimForm({
  id,
  label,
  hint,
  scan,
  initial = '',
  claim,
  busy,
  submit,
  scanPlacement,
  back,
  Candidates,
  children,
  onSubmit,
  ...formProps
}: ClaimFormProps) {
  const [value, setValue] = useState(initial);
  const [candidates, setCandidates] = useState<CheckCandidate[] | null>(null);
  const [scanning, setScanning] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);

  const send = (checkID?: string) =>
    claim(value.trim(), checkID).then(
      (found) => {
        setCandidates(found);
        if (!found) setValue('');
      },
      () => {},
    );
  const submitted = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit?.();
    setCandidates(null);
    if (value.trim()) void send();
  };
  const scanButton = scan ? (
    <Button
      variant={scanPlacement === 'row' ? 'outline-primary' : 'outline-secondary'}
      className={scanPlacement === 'row' ? 'mb-3' : undefined}
      onClick={() => setScanning(true)}
    >
      {scan.button}
    </Button>
  ) : null;

  return (
    <Form noValidate onSubmit={submitted} {...formProps}>
      {children}
      <TextField
        ref={fieldRef}
        id={id}
        label={label}
        hint={hint}
        autoComplete="off"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setCandidates(null);
        }}
      />
      {scanPlacement === 'row' ? scanButton : null}
      <div className="actions">
        {back}
        {scanPlacement === 'actions' ? scanButton : null}
        <BusyButton type="submit" variant={submit.variant} disabled={!value.trim()} busy={busy} busyLabel={submit.busyLabel}>
          {submit.label}
        </BusyButton>
      </div>
      {candidates ? <Candidates candidates={candidates} busy={busy} onAdd={(checkID) => void send(checkID)} /> : null}
      {scan && scanning ? (
        <Suspense fallback={null}>
          <BarcodeScanner
            texts={scan}
            onClose={() => setScanning(false)}
            onCode={(code) => {
              setScanning(false);
              setCandidates(null);
              setValue(code);
              fieldRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </Form>
  );
}

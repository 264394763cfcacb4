import type { ReactNode } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A guest page's main button under its fields: primary, large, the form's full width. */
export const MAIN_BUTTON = { variant: 'primary', size: 'lg', className: 'w-100 mt-2' } as const satisfies ButtonProps;

/** A button that shows a spinner and a busy label while its action runs. */
export function BusyButton({
  busy,
  busyLabel,
  children,
  disabled,
  ...props
}: ButtonProps & { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <Button {...props} disabled={busy || disabled} aria-disabled={busy || disabled}>
      {busy ? (
        <>
          <Spinner as="span" animation="border" size="sm" aria-hidden="true" className="me-2" />
          {busyLabel}
        </>
      ) : (
        children
      )}
    </Button>
  );
}

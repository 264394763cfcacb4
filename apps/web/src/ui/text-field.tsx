import type { ComponentPropsWithRef } from 'react';
import Form from 'react-bootstrap/Form';

export interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id' | 'size' | 'value'> {
  id: string;
  value?: string;
  label: string;
  /** A short format hint under the label ("8 digits"). */
  hint?: string;
  /** The validation message shown under the field; marks it invalid. */
  error?: string | undefined;
}

/** A labelled input with its hint and validation message wired for assistive technology. */
export function TextField({ id, label, hint, error, className, ...input }: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <Form.Group controlId={id} className={className ?? 'mb-3'}>
      <Form.Label>{label}</Form.Label>
      <Form.Control {...input} isInvalid={Boolean(error)} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint ? (
        <Form.Text id={hintId} className="field-hint">
          {hint}
        </Form.Text>
      ) : null}
      {error ? (
        <Form.Control.Feedback type="invalid" id={errorId}>
          {error}
        </Form.Control.Feedback>
      ) : null}
    </Form.Group>
  );
}

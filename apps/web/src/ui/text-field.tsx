import { useEffect, useRef, type ComponentPropsWithRef, type Ref } from 'react';
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

/**
 * Text a guest typed into a prerendered field before the app took over: hydration keeps the
 * page's text but the field's state is still empty, so it is handed to the field's onChange as
 * if typed now. The value is set past React's tracker (the prototype's setter) so React sees
 * the change, as a keystroke would make it. Nothing happens when the field shows its state.
 */
function adoptTextTypedBeforeHydration(input: HTMLInputElement | null, value: string | undefined) {
  if (!input || value === undefined || input.value === value) return;
  const typed = input.value;
  input.value = value;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, typed);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function assignRef<T>(ref: Ref<T> | undefined, element: T | null) {
  if (typeof ref === 'function') ref(element);
  else if (ref) ref.current = element;
}

/** A labelled input with its hint and validation message wired for assistive technology. */
export function TextField({ id, label, hint, error, className, ref, ...input }: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const element = useRef<HTMLInputElement | null>(null);
  const initialValue = useRef(input.value);
  useEffect(() => adoptTextTypedBeforeHydration(element.current, initialValue.current), []);
  return (
    <Form.Group controlId={id} className={className ?? 'mb-3'}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...input}
        ref={(node: HTMLInputElement | null) => {
          element.current = node;
          assignRef(ref, node);
        }}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
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

// One input component per modal field type, each labelled by the field's label, and FieldInput
// choosing among them from the declaration.
import { useQuery } from '@tanstack/react-query';
import Form from 'react-bootstrap/Form';
import type { FieldDeclaration, FieldType } from '@boardwalk/contract/staff-tabs';
import { optionsQueryOptions } from '../resource-api.ts';
import type { FormValue } from '../resource-values.ts';

export interface FieldInputProps {
  id: string;
  field: FieldDeclaration;
  value: FormValue;
  onChange: (value: FormValue) => void;
  disabled: boolean;
  required: boolean;
}

type InputProps = FieldInputProps & { value: string; onChange: (value: string) => void };

/** The label; a required field's star stays outside it so the field's name is the label alone. */
function Label({ field, required }: { field: FieldDeclaration; required: boolean }) {
  return (
    <div className="d-flex gap-1">
      <Form.Label>{field.label}</Form.Label>
      {required ? (
        <span className="staff-required" aria-hidden="true">
          *
        </span>
      ) : null}
    </div>
  );
}

export function CheckboxInput({
  id,
  field,
  value,
  onChange,
  disabled,
}: FieldInputProps & { value: boolean; onChange: (value: boolean) => void }) {
  return (
    <Form.Check
      id={id}
      className="mb-3"
      label={field.label}
      checked={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

/** The field's group: its label (with the required star) over the control. */
function Labelled({ id, field, required, children }: Pick<InputProps, 'id' | 'field' | 'required'> & { children: React.ReactNode }) {
  return (
    <Form.Group controlId={id} className="mb-3">
      <Label field={field} required={required} />
      {children}
    </Form.Group>
  );
}

/** What every text-like control takes from the field's props. */
const control = ({ value, onChange, disabled, required }: InputProps) => ({
  value,
  disabled,
  required,
  onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => onChange(e.target.value),
});

export function ColorInput(props: InputProps) {
  const { id, field, value } = props;
  return (
    <Labelled {...props}>
      <div className="d-flex align-items-center gap-2">
        <Form.Control type="color" className="staff-color-input" {...control(props)} />
        <output htmlFor={id} className="font-monospace" aria-label={`${field.label} value`}>
          {value.replace('#', '').toUpperCase()}
        </output>
      </div>
    </Labelled>
  );
}

export function NumberInput(props: InputProps) {
  return (
    <Labelled {...props}>
      <Form.Control
        type="number"
        inputMode={props.field.decimals ? 'decimal' : 'numeric'}
        step={props.field.decimals ? 10 ** -props.field.decimals : 1}
        min={props.field.min}
        max={props.field.maxValue}
        {...control(props)}
      />
    </Labelled>
  );
}

export function DateTimeInput(props: InputProps) {
  return (
    <Labelled {...props}>
      <Form.Control type="datetime-local" step={1} {...control(props)} />
    </Labelled>
  );
}

export function DateInput(props: InputProps) {
  return (
    <Labelled {...props}>
      <Form.Control type="date" {...control(props)} />
    </Labelled>
  );
}

export function PasswordInput(props: InputProps) {
  return (
    <Labelled {...props}>
      <Form.Control type="password" autoComplete="new-password" {...control(props)} />
    </Labelled>
  );
}

export function SelectInput(props: InputProps) {
  const { field, value } = props;
  const options = useQuery({ ...optionsQueryOptions(field.options ?? 'passCustomizations'), enabled: Boolean(field.options) });
  const list = field.choices ?? options.data ?? [];
  // The current value stays choosable even when the option list has not loaded or lost it.
  const withCurrent = value && !list.some((o) => o.value === value) ? [...list, { value, label: value }] : list;
  return (
    <Labelled {...props}>
      <Form.Select {...control(props)}>
        <option value="">SELECT</option>
        {withCurrent.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
    </Labelled>
  );
}

export function TextareaInput(props: InputProps) {
  return (
    <Labelled {...props}>
      <Form.Control as="textarea" rows={5} maxLength={props.field.max} {...control(props)} />
    </Labelled>
  );
}

export function TextInput(props: InputProps) {
  return (
    <Labelled {...props}>
      <Form.Control
        type={props.field.format === 'email' ? 'email' : 'text'}
        autoComplete="off"
        maxLength={props.field.max}
        {...control(props)}
      />
    </Labelled>
  );
}

const TEXT_INPUTS: Record<Exclude<FieldType, 'checkbox'>, (props: InputProps) => React.JSX.Element> = {
  color: ColorInput,
  number: NumberInput,
  date: DateInput,
  datetime: DateTimeInput,
  password: PasswordInput,
  select: SelectInput,
  textarea: TextareaInput,
  text: TextInput,
};

export function FieldInput(props: FieldInputProps) {
  const { field, value, onChange } = props;
  if (field.type === 'checkbox') return <CheckboxInput {...props} value={value === true} onChange={onChange} />;
  const Input = TEXT_INPUTS[field.type];
  return <Input {...props} value={typeof value === 'string' ? value : ''} onChange={onChange} />;
}

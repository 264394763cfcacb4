// The order id and barcode of a pass lookup (the main page's login, the loyalty area's Find
// Your Pass): digits only, as many as each may have.
import type { Ref } from 'react';
import { TextField } from '../../ui/text-field.tsx';

type OrderField = 'orderId' | 'barcode';

const FIELDS = {
  orderId: { label: 'Order ID', hint: '8 digits', digits: 8 },
  barcode: { label: 'Barcode', hint: '8 to 18 digits', digits: 18 },
} as const;

const digitsOnly = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

interface OrderFieldsProps {
  ids: Record<OrderField, string>;
  /** The inputs carry their names (orderId, barcode). */
  named?: boolean;
  values: Record<OrderField, string>;
  onChange: Record<OrderField, (value: string) => void>;
  errors?: Partial<Record<OrderField, string>>;
  refs?: Partial<Record<OrderField, Ref<HTMLInputElement>>>;
}

export function OrderFields({ ids, named = false, values, onChange, errors = {}, refs = {} }: OrderFieldsProps) {
  return (['orderId', 'barcode'] as const).map((field) => (
    <TextField
      key={field}
      ref={refs[field]}
      id={ids[field]}
      label={FIELDS[field].label}
      hint={FIELDS[field].hint}
      name={named ? field : undefined}
      inputMode="numeric"
      autoComplete="off"
      value={values[field]}
      error={errors[field]}
      onChange={(e) => onChange[field](digitsOnly(e.target.value, FIELDS[field].digits))}
    />
  ));
}

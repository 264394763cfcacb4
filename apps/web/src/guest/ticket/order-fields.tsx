// The order id and barcode of a pass lookup (the main page's login, the loyalty area's Find
// Your Pass): digits only, as many as each may have.
import type { Ref } from 'react';
import { useTranslations } from 'use-intl';
import { TextField } from '../../ui/text-field.tsx';

type OrderField = 'orderId' | 'barcode';

const DIGITS: Record<OrderField, number> = { orderId: 8, barcode: 18 };

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
  const t = useTranslations('ticket.order');
  return (['orderId', 'barcode'] as const).map((field) => (
    <TextField
      key={field}
      ref={refs[field]}
      id={ids[field]}
      label={t(field)}
      hint={t(`${field}Hint`)}
      name={named ? field : undefined}
      inputMode="numeric"
      autoComplete="off"
      value={values[field]}
      error={errors[field]}
      onChange={(e) => onChange[field](digitsOnly(e.target.value, DIGITS[field]))}
    />
  ));
}

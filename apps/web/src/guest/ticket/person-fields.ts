// A person's four fields as the guest forms ask for them (the registration, a share): their
// names, the phone mask, and the first problem the contract's schema finds in each.
import type { ContractSchema } from '../../lib/api-client.ts';

export type PersonField = 'firstName' | 'lastName' | 'email' | 'phone';
export type PersonFieldErrors = Partial<Record<PersonField, string>>;
export const PERSON_FIELDS: PersonField[] = ['firstName', 'lastName', 'email', 'phone'];

/** Shown as (999) 999-9999, kept and sent as its digits. */
export const PHONE_MASK = { mask: '(000) 000-0000' };

/** The schema's first message for each of the person's fields it refuses. */
export function personFieldErrors(schema: ContractSchema, values: unknown): PersonFieldErrors {
  const errors: PersonFieldErrors = {};
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as PersonField;
      if (PERSON_FIELDS.includes(field)) errors[field] ??= issue.message;
    }
  }
  return errors;
}

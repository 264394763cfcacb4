// A person's four fields as the guest forms ask for them (the registration, a share): their
// names, the phone mask, and the first problem the contract's schema finds in each, worded in
// the page's language (ticket.person.problems).
import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import type { ContractSchema } from '../../lib/api-client.ts';

export type PersonField = 'firstName' | 'lastName' | 'email' | 'phone';
export type PersonFieldErrors = Partial<Record<PersonField, string>>;
export const PERSON_FIELDS: PersonField[] = ['firstName', 'lastName', 'email', 'phone'];

/** Shown as (999) 999-9999, kept and sent as its digits. */
export const PHONE_MASK = { mask: '(000) 000-0000' };

/**
 * What the schema finds wrong with a field: empty (or a phone too short), too long (at most
 * `max`), a name with other than letters (a share's names), or else not valid.
 */
export type PersonProblem =
  | { field: 'firstName' | 'lastName'; kind: 'required' | 'letters' | 'invalid' }
  | { field: 'firstName' | 'lastName'; kind: 'tooLong'; max: number }
  | { field: 'email'; kind: 'required' | 'tooLong' | 'invalid' }
  | { field: 'phone'; kind: 'required' | 'tooShort' | 'tooLong' };
export type PersonProblems = Partial<Record<PersonField, PersonProblem>>;

/** A field's problem by the schema's issue (its code, not its English message). */
function problemOf(field: PersonField, issue: { code: string; maximum?: unknown }): PersonProblem {
  const tooBig = issue.code === 'too_big';
  if (field === 'phone') return { field, kind: tooBig ? 'tooLong' : 'tooShort' };
  if (field === 'email') return { field, kind: issue.code === 'too_small' ? 'required' : tooBig ? 'tooLong' : 'invalid' };
  if (issue.code === 'too_small') return { field, kind: 'required' };
  if (tooBig) return { field, kind: 'tooLong', max: Number(issue.maximum) };
  return { field, kind: issue.code === 'invalid_format' ? 'letters' : 'invalid' };
}

/** The schema's first problem with each of the person's fields it refuses. */
export function personFieldProblems(schema: ContractSchema, values: unknown): PersonProblems {
  const problems: PersonProblems = {};
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as PersonField;
      if (PERSON_FIELDS.includes(field)) problems[field] ??= problemOf(field, issue);
    }
  }
  return problems;
}

/**
 * The problems' words: a share's too-long name says its limit ("(at most 50 characters)"), the
 * registration's does not.
 */
export function usePersonFieldErrors({ sayLimit }: { sayLimit: boolean }) {
  const t = useTranslations('ticket.person.problems');
  return useCallback(
    (problems: PersonProblems): PersonFieldErrors => {
      const errors: PersonFieldErrors = {};
      for (const problem of Object.values(problems)) {
        if (problem.kind === 'tooLong' && (problem.field === 'firstName' || problem.field === 'lastName')) {
          errors[problem.field] = sayLimit ? t(`${problem.field}.tooLongAtMost`, { max: problem.max }) : t(`${problem.field}.tooLong`);
        } else {
          errors[problem.field] = t(`${problem.field}.${problem.kind}` as `email.required`);
        }
      }
      return errors;
    },
    [t, sayLimit],
  );
}

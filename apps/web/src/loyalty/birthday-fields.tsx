// A member's birthday, month and day (no year), as both audiences give it: the guest when
// joining, staff with the contact details. The months are named in the page's language by the
// browser's own locale data (Intl), the days follow the month (February has 29).
import Form from 'react-bootstrap/Form';
import { DAYS_IN_MONTH, type Birthday } from '@boardwalk/contract/loyalty';

/** The two selects' values: '' when not chosen. */
export interface BirthdayValue {
  month: string;
  day: string;
}
export const NO_BIRTHDAY: BirthdayValue = { month: '', day: '' };

export const birthdayValueOf = (birthday: Birthday | null): BirthdayValue =>
  birthday ? { month: String(birthday.month), day: String(birthday.day) } : NO_BIRTHDAY;

/** The birthday the selects hold: null for none; undefined while only one of the two is chosen. */
export function birthdayOf(value: BirthdayValue): Birthday | null | undefined {
  if (value.month === '' && value.day === '') return null;
  if (value.month === '' || value.day === '') return undefined;
  return { month: Number(value.month), day: Number(value.day) };
}

export function BirthdayFields({
  id,
  labels,
  locale,
  value,
  onChange,
  hint,
}: {
  id: string;
  labels: { legend: string; month: string; day: string };
  locale: string;
  value: BirthdayValue;
  onChange: (value: BirthdayValue) => void;
  hint?: string;
}) {
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  const days = value.month === '' ? 31 : DAYS_IN_MONTH[Number(value.month) - 1]!;
  return (
    <fieldset className="mb-3" aria-describedby={hint ? `${id}-hint` : undefined}>
      <legend className="form-label fs-6 mb-1">{labels.legend}</legend>
      <div className="d-flex gap-2">
        <Form.Group controlId={`${id}-month`} className="flex-grow-1">
          <Form.Label className="visually-hidden">{labels.month}</Form.Label>
          <Form.Select
            value={value.month}
            onChange={(e) => {
              const month = e.target.value;
              const max = month === '' ? 31 : DAYS_IN_MONTH[Number(month) - 1]!;
              onChange({ month, day: value.day !== '' && Number(value.day) > max ? '' : value.day });
            }}
          >
            <option value="">{labels.month}</option>
            {DAYS_IN_MONTH.map((_, i) => (
              <option key={i} value={String(i + 1)}>
                {monthName.format(new Date(Date.UTC(2000, i, 1)))}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId={`${id}-day`} style={{ minWidth: '6rem' }}>
          <Form.Label className="visually-hidden">{labels.day}</Form.Label>
          <Form.Select value={value.day} onChange={(e) => onChange({ ...value, day: e.target.value })}>
            <option value="">{labels.day}</option>
            {Array.from({ length: days }, (_, i) => (
              <option key={i} value={String(i + 1)}>
                {i + 1}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
      {hint ? (
        <Form.Text id={`${id}-hint`} className="text-body-secondary">
          {hint}
        </Form.Text>
      ) : null}
    </fieldset>
  );
}

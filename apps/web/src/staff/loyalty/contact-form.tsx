// The member's phone, zip and birthday: staff fill in what the lookup shows (nothing else knows the
// first two; the birthday the member may have given when joining).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import Form from 'react-bootstrap/Form';
import { staffLoyaltyMessages as texts } from '@boardwalk/contract/staff-loyalty';
import type { Birthday } from '@boardwalk/contract/loyalty';
import { BirthdayFields, birthdayOf, birthdayValueOf } from '../../loyalty/birthday-fields.tsx';
import { formatPhone } from '../../lib/format.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useToast } from '../../ui/toasts.tsx';
import { accountQuery, api, loyaltyJson } from './loyalty-api.ts';
import { useLoyaltyFailure } from './loyalty-errors.ts';

function useSaveContact(userID: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const fail = useLoyaltyFailure();
  return useMutation({
    mutationFn: (contact: { phone: string; zip: string; birthday: Birthday | null }) =>
      loyaltyJson(`${api}contact/`, z.unknown(), 'POST', { userID, ...contact }),
    onSuccess: () => {
      toast('Contact details saved.', 'success');
      void queryClient.invalidateQueries({ queryKey: accountQuery(userID).queryKey });
    },
    onError: (error) => fail(error, texts.unableToSubmit),
  });
}

export function ContactForm({
  userID,
  phone,
  zip,
  birthday,
}: {
  userID: string;
  phone: string | null;
  zip: string | null;
  birthday: Birthday | null;
}) {
  const [phoneValue, setPhone] = useState(phone ? formatPhone(phone) : '');
  const [zipValue, setZip] = useState(zip ?? '');
  const [born, setBorn] = useState(birthdayValueOf(birthday));
  const chosen = birthdayOf(born);
  const save = useSaveContact(userID);
  return (
    <Form
      noValidate
      className="staff-loyalty__panel"
      aria-labelledby="loyalty-contact-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen !== undefined) save.mutate({ phone: phoneValue.trim(), zip: zipValue.trim(), birthday: chosen });
      }}
    >
      <h3 id="loyalty-contact-heading" className="h6">
        Contact
      </h3>
      <div className="staff-loyalty__pair">
        <TextField
          id="loyalty-phone"
          label="Phone"
          type="tel"
          autoComplete="off"
          value={phoneValue}
          onChange={(e) => setPhone(e.target.value)}
        />
        <TextField id="loyalty-zip" label="Zip" autoComplete="off" value={zipValue} onChange={(e) => setZip(e.target.value)} />
      </div>
      <BirthdayFields
        id="loyalty-birthday"
        labels={{ legend: 'Birthday', month: 'Month', day: 'Day' }}
        locale="en-US"
        value={born}
        onChange={setBorn}
      />
      <BusyButton type="submit" variant="outline-primary" busy={save.isPending} busyLabel="Saving..." disabled={chosen === undefined}>
        Save Contact
      </BusyButton>
    </Form>
  );
}

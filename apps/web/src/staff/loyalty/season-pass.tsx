// The member's season pass: one saved locks the field and shows Remove; otherwise Add (18
// characters starting with 24). GET answers 404 when there is none.
import { useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import Form from 'react-bootstrap/Form';
import { isSeasonPassId, staffLoyaltyMessages as texts } from '@boardwalk/contract/staff-loyalty';
import { failedWith } from '../../lib/api-client.ts';
import { BusyButton } from '../../ui/busy-button.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { api, id, loyaltyJson, loyaltyText, memberKey } from './loyalty-api.ts';
import { useLoyaltyFailure, useToastOnError } from './loyalty-errors.ts';

async function fetchSeasonPass(userID: string): Promise<string | null> {
  try {
    return await loyaltyText(`${api}pass/${id(userID)}/`, 'GET');
  } catch (error) {
    if (failedWith(error, 'NOT_FOUND')) return null;
    throw error;
  }
}

const seasonPassQuery = (userID: string) =>
  queryOptions({ queryKey: [...memberKey(userID), 'season-pass'], queryFn: () => fetchSeasonPass(userID), retry: false });

function useSeasonPassChange<T>(userID: string, change: (value: T) => Promise<unknown>, failure: string) {
  const queryClient = useQueryClient();
  const fail = useLoyaltyFailure();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seasonPassQuery(userID).queryKey }),
    onError: (error) => fail(error, failure),
  });
}

export function SeasonPass({ userID }: { userID: string }) {
  const pass = useQuery(seasonPassQuery(userID));
  useToastOnError(pass.error, texts.unableToGetSeasonPass);
  const [value, setValue] = useState('');
  const add = useSeasonPassChange(
    userID,
    (seasonPassID: string) => loyaltyText(`${api}pass/`, 'POST', { userID, seasonPassID }),
    texts.unableToAddSeasonPass,
  );
  const remove = useSeasonPassChange(
    userID,
    () => loyaltyJson(`${api}pass/${id(userID)}`, z.unknown(), 'DELETE'),
    texts.unableToRemoveSeasonPass,
  );
  const current = pass.data;
  return (
    <Form
      noValidate
      className="staff-loyalty__panel"
      aria-labelledby="loyalty-season-pass-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (!current && isSeasonPassId(value.trim())) add.mutate(value.trim(), { onSuccess: () => setValue('') });
      }}
    >
      <h3 id="loyalty-season-pass-heading" className="h6">
        Season Pass
      </h3>
      <TextField
        id="loyalty-season-pass"
        label="Season Pass ID"
        hint={current ? undefined : '18 characters, starting with 24'}
        autoComplete="off"
        className="staff-loyalty__mono mb-3"
        value={current ?? value}
        readOnly={Boolean(current)}
        disabled={pass.isPending}
        onChange={(e) => setValue(e.target.value)}
      />
      {current ? (
        <BusyButton variant="outline-danger" busy={remove.isPending} busyLabel="Removing..." onClick={() => remove.mutate(undefined)}>
          Remove Season Pass
        </BusyButton>
      ) : (
        <BusyButton type="submit" disabled={pass.isPending || !isSeasonPassId(value.trim())} busy={add.isPending} busyLabel="Adding...">
          Add Season Pass
        </BusyButton>
      )}
    </Form>
  );
}

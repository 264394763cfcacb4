// The Privacy tab: find a person by email, phone or barcode, or by name with an order id, a
// barcode or the order's date (a ticket holder with no email or phone), and see everything held about them,
// grouped (tickets, consents, shares, photos, wristbands, loyalty, hotel stays, mails, wallet
// passes), with Download for the same as one JSON file. Each Find is one audited export; the
// download saves the document already shown, so it is not asked for (nor audited) twice. A
// member holding Privacy Erase erases it all after a confirmation that names what goes and
// what is kept; the answer lists the orders to erase in the ticketing system too. An activated
// season pass whose holder was erased is locked (no new photo or name): the Season pass locks
// section says why and since when, and a member holding Privacy Lift Pass Lock lifts it.
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { privacyExport, type PrivacyErasure } from '@boardwalk/contract/privacy';
import { PRIVACY } from '@boardwalk/contract/staff-operations-tabs';
import { staffRequest } from '../auth/staff-api.ts';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { hasPermission, type StaffUser } from '../auth/staff-session.ts';
import { PersonalData } from './privacy-data.tsx';
import { EraseDialog, Erased } from './privacy-erasure.tsx';
import { PrivacyFindForm } from './privacy-find-form.tsx';

export function PrivacyPage({ user }: { user: StaffUser }) {
  const handleError = useStaffErrorHandler();
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [erased, setErased] = useState<PrivacyErasure | null>(null);
  const find = useMutation({
    mutationFn: async (body: object) => (await staffRequest(PRIVACY.export.api, { method: 'POST', body, schema: privacyExport })).data,
    onError: (e) => setError(handleError(e) ?? undefined),
  });
  const canErase = hasPermission(user, PRIVACY.erase);

  return (
    <section aria-labelledby="privacy-heading" className="staff-privacy">
      <h2 id="privacy-heading" className="h4 mb-3">
        Privacy
      </h2>
      <PrivacyFindForm
        busy={find.isPending}
        error={error}
        onClearError={() => setError(undefined)}
        onFind={(body) => {
          setErased(null);
          find.mutate(body);
        }}
      />
      <div aria-live="polite">
        {erased ? <Erased result={erased} /> : null}
        {find.data && !find.isPending && !erased ? (
          <PersonalData
            doc={find.data}
            onErase={canErase ? () => setConfirming(true) : undefined}
            canLift={hasPermission(user, PRIVACY.liftPassLock)}
          />
        ) : null}
      </div>
      {confirming && find.data ? (
        <EraseDialog
          doc={find.data}
          onClose={() => setConfirming(false)}
          onErased={(result) => {
            setConfirming(false);
            setErased(result);
          }}
        />
      ) : null}
    </section>
  );
}

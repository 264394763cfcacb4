// Whether a pass is in a wallet, as staff read it: the devices registered for its Apple
// Wallet updates, and what Google Wallet's save and delete callbacks last said.
import type { WalletPresence } from '@boardwalk/contract/staff-loyalty';

const GOOGLE_LABELS: Record<WalletPresence['google'], string> = { saved: 'Saved', deleted: 'Deleted', unknown: 'Unknown' };

export const appleDevicesText = (p: WalletPresence) => (p.appleDevices === 1 ? '1 device' : `${p.appleDevices} devices`);
export const googleText = (p: WalletPresence) => GOOGLE_LABELS[p.google];

/** One line: "Member card: Apple Wallet 2 devices · Google Wallet Saved" (on a phone, it wraps between the wallets). */
export function WalletPresenceLine({ label, presence }: { label: string; presence: WalletPresence }) {
  return (
    <p className="mb-0 text-body-secondary" data-testid="member-card-wallets">
      {label}: <span className="text-nowrap">Apple Wallet {appleDevicesText(presence)}</span> ·{' '}
      <span className="text-nowrap">Google Wallet {googleText(presence)}</span>
    </p>
  );
}

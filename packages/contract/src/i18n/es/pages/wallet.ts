import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/wallet.ts';

export default {} as const satisfies Translation<typeof en>;

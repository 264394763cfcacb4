import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/errors.ts';

export default {} as const satisfies Translation<typeof en>;

// The guest pages' words in English, one file per area (pages/), gathered for their types
// (PageTexts in ../pages.ts): the browser loads each area as a chunk of its own (../pages.ts),
// its messages compiled at build time, and never this file.
import common from './pages/common.ts';
import errors from './pages/errors.ts';
import ticket from './pages/ticket.ts';
import pass from './pages/pass.ts';
import wallet from './pages/wallet.ts';
import share from './pages/share.ts';
import photo from './pages/photo.ts';
import wristband from './pages/wristband.ts';
import storedValue from './pages/stored-value.ts';
import privacy from './pages/privacy.ts';
import loyalty from './pages/loyalty.ts';
import statement from './pages/statement.ts';
import visits from './pages/visits.ts';

export default { common, errors, ticket, pass, wallet, share, photo, wristband, storedValue, privacy, loyalty, statement, visits };

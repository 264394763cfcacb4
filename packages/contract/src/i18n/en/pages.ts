// The guest pages' words in English, one file per area (pages/): the browser loads a language's
// catalogue as a chunk of its own (../pages.ts), its messages compiled at build time.
import common from './pages/common.ts';

export default { common };

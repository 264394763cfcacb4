// Las palabras de las páginas del visitante en español (de usted; docs/i18n.md).
import common from './pages/common.ts';

export default { common };

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

// ---- The layout, enforced (README "Layout") ---------------------------------------------
// Imports run one way: app -> staff -> guest -> integrations / platform -> db / contract.
// A feature never imports another feature, except the guest ticket core (guest/ticket) and the
// staff core (staff/auth, staff/audit, staff/resources); an integration never imports another
// system's folder. Product code never imports test support. The rules are ESLint's own
// no-restricted-imports on the import text: every import in the code base is relative or a
// package name, so a regular expression per layer states the rule without a resolver plugin.

const TOP = String.raw`^(\.\./)+(app|server|worker)\.ts$`;
const upTo = (...folders) => String.raw`^(\.\./)+(${folders.join('|')})/`;
/**
 * From a file in <layer>/<feature>/...: another feature of the layer other than the allowed
 * ones, reached as a sibling (../x/) or by climbing out of the layer (../../layer/x/).
 */
const siblingExcept = (layer, ...allowed) => {
  const other = `${allowed.length ? `(?!(${allowed.join('|')})/)` : ''}[^./][^/]*/`;
  return String.raw`^(\.\./${other}|(\.\./){2,}${layer}/${other})`;
};

const TEST_SUPPORT = { regex: String.raw`(^|/)test-support(/|$)`, message: 'Product code never imports test support.' };
const backwards = (regex, what) => ({ regex, message: `Backwards import: ${what} (README "Layout").` });

/**
 * Per folder of product code: the imports it may not make. Where a file matches two entries
 * the later one applies (its whole list), so a narrower folder comes after the wider one.
 */
const layers = [
  [
    'apps/api/src/platform/**/*.ts',
    [
      backwards(upTo('integrations', 'guest', 'staff', 'demo', 'ops'), 'platform depends on nothing above it'),
      backwards(TOP, 'platform depends on nothing above it'),
    ],
  ],
  [
    'apps/api/src/integrations/*.ts',
    [
      backwards(upTo('guest', 'staff', 'demo', 'ops'), 'integrations depend on platform only'),
      backwards(TOP, 'integrations depend on platform only'),
    ],
  ],
  [
    'apps/api/src/integrations/*/**/*.ts',
    [
      backwards(upTo('guest', 'staff', 'demo', 'ops'), 'integrations depend on platform only'),
      backwards(TOP, 'integrations depend on platform only'),
      backwards(siblingExcept('integrations'), "one system's integration never imports another's"),
    ],
  ],
  [
    'apps/api/src/guest/*/**/*.ts',
    [
      backwards(upTo('staff', 'demo', 'ops'), 'guest code never imports staff code'),
      backwards(TOP, 'the app imports guest code, not the reverse'),
      backwards(siblingExcept('guest', 'ticket'), 'a guest feature imports only the ticket core of the others'),
    ],
  ],
  [
    'apps/api/src/guest/ticket/**/*.ts',
    [
      backwards(upTo('staff', 'demo', 'ops'), 'guest code never imports staff code'),
      backwards(TOP, 'the app imports guest code, not the reverse'),
      backwards(siblingExcept('guest'), 'the ticket core imports no guest feature'),
    ],
  ],
  [
    'apps/api/src/staff/*/**/*.ts',
    [
      backwards(upTo('demo', 'ops'), 'staff code never imports the demo or ops'),
      backwards(TOP, 'the app imports staff code, not the reverse'),
      backwards(siblingExcept('staff', 'auth', 'audit', 'resources'), 'a staff feature imports only the staff core'),
    ],
  ],
  [
    'apps/web/src/{lib,ui,types}/**/*.{ts,tsx}',
    [backwards(upTo('app', 'guest', 'staff'), 'lib and ui serve the features, they import none')],
  ],
  ['apps/web/src/guest/**/*.{ts,tsx}', [backwards(upTo('app', 'staff'), 'guest pages never import the staff area or the app shell')]],
  ['apps/web/src/staff/**/*.{ts,tsx}', [backwards(upTo('app'), 'the app shell imports the staff area, not the reverse')]],
];

const PRODUCT = ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'];
const TESTS = ['**/*.test.ts'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.tmp/**', 'packages/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] } },
  // Product code outside the layered folders (entry points, the demo, ops, packages): test support only.
  { files: PRODUCT, ignores: TESTS, rules: { 'no-restricted-imports': ['error', { patterns: [TEST_SUPPORT] }] } },
  ...layers.map(([files, patterns]) => ({
    files: [files],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [TEST_SUPPORT, ...patterns] }] },
  })),
  // File names: kebab-case, with a role suffix where the file has one (pass.routes.ts).
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': '+([a-z0-9])*(-+([a-z0-9]))?(.@(routes|service|repo|plugin|fixtures|command|document|config|d))?(.test)' },
      ],
    },
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

// ---- The layout, enforced (docs/architecture.md "Layers") ---------------------------------
// Imports run one way: app -> staff -> guest -> wallet core -> loyalty core -> integrations /
// platform -> db / contract (the wallet and loyalty cores also import the ticket core). A feature
// never imports another feature, except the declared cores (the ticket core, the wallet core,
// the loyalty core, the staff core); an integration never imports another system's folder, and
// inside the wallet Apple's side (wallet/apple) and Google's (wallet/google) never import each
// other. Platform imports no feature.
//
// The rules are zones of import-x's no-restricted-paths, checked on the path an import
// resolves to, not its text: a feature may have subfolders, and a file deep inside one is
// still that feature's. eslint-plugin-import-x (the maintained fork of eslint-plugin-import,
// ESLint 10 supported, its own resolver built in) over eslint-plugin-boundaries: the zones are
// plain folder paths, as in bulletproof-react's configuration, with no element-type layer to
// learn. Each feature's zone is made from the folders on disk, so a new feature folder is
// covered by its layer's rule without an edit here.

const ROOT = import.meta.dirname;
/** The folders directly inside dir (a path from the repository root). */
const foldersOf = (dir) =>
  readdirSync(`${ROOT}/${dir}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}/${entry.name}`);
const except = (folders, ...kept) => folders.filter((folder) => !kept.includes(folder));
const zone = (target, from, what) => ({ target, from, message: `Backwards import: ${what} (docs/architecture.md "Layers").` });

const API = 'apps/api/src';
const api = (...names) => names.map((name) => `${API}/${name}`);
const API_TOP = api('app.ts', 'server.ts', 'worker.ts');
const TICKET_CORE = `${API}/guest/ticket`;
const LOYALTY_CORE = `${API}/loyalty`;
const WALLET_CORE = `${API}/wallet`;
const WALLET_APPLE = `${WALLET_CORE}/apple`;
const WALLET_GOOGLE = `${WALLET_CORE}/google`;
const GUEST = foldersOf(`${API}/guest`);
const STAFF = foldersOf(`${API}/staff`);
const STAFF_CORE = api('staff/auth', 'staff/audit', 'staff/resources');
const SYSTEMS = foldersOf(`${API}/integrations`);

const WEB = 'apps/web/src';
const web = (...names) => names.map((name) => `${WEB}/${name}`);
const WEB_TICKET_CORE = `${WEB}/guest/ticket`;
const WEB_GUEST = foldersOf(`${WEB}/guest`);
const WEB_STAFF = foldersOf(`${WEB}/staff`);
const WEB_STAFF_CORE = web('staff/auth', 'staff/resources', 'staff/admin');
/**
 * Guest features that show another feature's section: the pass page shows the photo, share,
 * visit reservations and wallet sections; the loyalty pages offer the loyalty card's wallet buttons. None of
 * those imports the page back.
 */
const WEB_GUEST_SECTIONS = {
  [`${WEB}/guest/pass`]: web('guest/photo', 'guest/share', 'guest/visits', 'guest/wallet'),
  [`${WEB}/guest/loyalty`]: web('guest/wallet'),
};

const zones = [
  zone(
    `${API}/platform`,
    [...api('integrations', 'wallet', 'loyalty', 'guest', 'staff', 'demo', 'ops'), ...API_TOP],
    'platform depends on nothing above it',
  ),
  // The loyalty core reads the feeds' repos, so no integration imports it (no cycle).
  zone(
    `${API}/integrations`,
    [...api('guest', 'wallet', 'loyalty', 'staff', 'demo', 'ops'), ...API_TOP],
    'integrations depend on platform only',
  ),
  ...SYSTEMS.map((system) => zone(system, except(SYSTEMS, system), "one system's integration never imports another's")),
  // The wallet serves guest and staff code (ticket passes, member cards, the Deliveries tab and
  // the Dashboard) and sits on the loyalty and ticket cores: it imports no guest feature and no
  // staff code, and neither core imports it.
  zone(
    WALLET_CORE,
    [...except(GUEST, TICKET_CORE), ...api('staff', 'demo', 'ops'), ...API_TOP],
    'the wallet core imports platform, integrations, the loyalty core and the ticket core only',
  ),
  zone(WALLET_APPLE, WALLET_GOOGLE, "the wallet's Apple side never imports its Google side"),
  zone(WALLET_GOOGLE, WALLET_APPLE, "the wallet's Google side never imports its Apple side"),
  zone(
    LOYALTY_CORE,
    [...except(GUEST, TICKET_CORE), WALLET_CORE, ...api('staff', 'demo', 'ops'), ...API_TOP],
    'the loyalty core imports platform, integrations and the ticket core only',
  ),
  zone(`${API}/guest`, api('staff', 'demo', 'ops'), 'guest code never imports staff code'),
  zone(`${API}/guest`, API_TOP, 'the app imports guest code, not the reverse'),
  zone(
    TICKET_CORE,
    [...except(GUEST, TICKET_CORE), WALLET_CORE, LOYALTY_CORE],
    'the ticket core imports no guest feature, nor the wallet or loyalty core',
  ),
  ...except(GUEST, TICKET_CORE).map((feature) =>
    zone(feature, except(GUEST, feature, TICKET_CORE), 'a guest feature imports only the ticket core of the others'),
  ),
  zone(`${API}/staff`, api('demo', 'ops'), 'staff code never imports the demo or ops'),
  zone(`${API}/staff`, API_TOP, 'the app imports staff code, not the reverse'),
  ...STAFF.map((folder) => zone(folder, except(STAFF, folder, ...STAFF_CORE), 'a staff folder imports only the staff core of the others')),

  zone(web('lib', 'ui', 'types'), web('app', 'guest', 'staff', 'loyalty'), 'lib and ui serve the features, they import none'),
  zone(`${WEB}/loyalty`, web('app', 'guest', 'staff'), 'the shared loyalty forms serve both audiences, they import neither'),
  zone(`${WEB}/guest`, web('app', 'staff'), 'guest pages never import the staff area or the app shell'),
  zone(`${WEB}/staff`, web('app', 'guest'), 'the staff area imports neither guest pages nor the app shell'),
  zone(WEB_TICKET_CORE, except(WEB_GUEST, WEB_TICKET_CORE), 'the ticket core imports no guest feature'),
  ...except(WEB_GUEST, WEB_TICKET_CORE).map((feature) =>
    zone(
      feature,
      except(WEB_GUEST, feature, WEB_TICKET_CORE, ...(WEB_GUEST_SECTIONS[feature] ?? [])),
      'a guest feature imports only the ticket core of the others',
    ),
  ),
  ...WEB_STAFF.map((folder) =>
    zone(folder, except(WEB_STAFF, folder, ...WEB_STAFF_CORE), 'a staff folder imports only the staff core of the others'),
  ),
];

const TEST_SUPPORT = { regex: String.raw`(^|/)test-support(/|$)`, message: 'Product code never imports test support.' };

const PRODUCT = ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'];
const TESTS = ['**/*.test.ts'];

// ---- The guest pages' Zod: zod/mini only ---------------------------------------------------
// The guest pages have a first-screen budget (e2e/bundle-size.test.ts: 150 KiB compressed per
// page, initial JavaScript included). Classic Zod's chainable schemas cannot be tree-shaken and
// cost ~9 KiB gzipped over zod/mini's functional API (z.optional(x), x.check(z.minLength(1)),
// z.extend(obj, {...}), describe() of describe.ts). So the contract modules the guest pages load,
// and the web code outside the back office, import zod/mini (or zod/v4/core types), never classic
// Zod: one such import would pull it back into the guest chunks. The back office (apps/web/src/staff)
// and the API may use classic Zod, on these schemas too, through the functional forms.
const GUEST_CONTRACT = [
  'describe',
  'errors',
  'guest-shells',
  'loyalty',
  'loyalty-statement',
  'loyalty-statement-messages',
  'pass',
  'pass-address',
  'pass-language',
  'photo',
  'privacy',
  'share',
  'stored-value',
  'visits',
  'wallet',
  'wristband',
].map((name) => `packages/contract/src/${name}.ts`);
const GUEST_WEB = [
  'apps/web/src/*.{ts,tsx}',
  ...['app', 'guest', 'lib', 'loyalty', 'service-worker', 'ui'].map((dir) => `apps/web/src/${dir}/**/*.{ts,tsx}`),
];
const CLASSIC_ZOD = ['zod', 'zod/v4', 'zod/v3'].map((name) => ({
  name,
  message: "The guest pages' code imports zod/mini: classic Zod would come back into their first screen (eslint.config.js).",
}));

// date-fns by function (date-fns/addDays), never its index: in Node the index loads all 300 of
// its modules, each resolved through date-fns' 199 KB package.json: 3.5 s of CPU under tsx (1.9 s
// compiled) at every start of a process that loads the API (docs/performance.md, bench:api-load).
const DATE_FNS_INDEX = [
  {
    name: 'date-fns',
    message: 'Import each date-fns function from its own module (date-fns/addDays): the index loads all 300 (eslint.config.js).',
  },
];

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
  // Product code never imports test support: read on the import text, since a package's
  // test support (@boardwalk/db/test-support/...) is reached by its name.
  {
    files: PRODUCT,
    ignores: TESTS,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // no-cycle follows imports through the files it reads: TypeScript files, by TypeScript's parser.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'no-restricted-imports': ['error', { paths: DATE_FNS_INDEX, patterns: [TEST_SUPPORT] }],
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones }],
      // No import cycle anywhere in product code: a cycle makes the load order decide what a
      // module sees (an import read before it is set), and joins layers into one.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // The guest pages' code on zod/mini (above). The same rule as product code's, which this
  // block's options replace for these files: test support and the date-fns index stay refused.
  {
    files: [...GUEST_CONTRACT, ...GUEST_WEB],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { paths: [...CLASSIC_ZOD, ...DATE_FNS_INDEX], patterns: [TEST_SUPPORT] }] },
  },
  // File names: kebab-case, with a role suffix where the file has one (pass.routes.ts).
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        {
          '**/*.{ts,tsx}':
            '+([a-z0-9])*(-+([a-z0-9]))?(.@(routes|service|repo|plugin|jobs|topics|fixtures|command|document|config|d))?(.test)',
        },
      ],
    },
  },
);

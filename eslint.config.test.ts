// The layout rules of eslint.config.js (docs/architecture.md "Layers") reject what they should
// and only that. The layer rules read the path an import resolves to, so every sample names a
// file that exists (checked below: an import that resolves nowhere is never reported).
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: import.meta.dirname });

/** The rule ids ESLint reports for this code at this path (the file need not exist). */
async function reported(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const importing = (specifier: string) => `import '${specifier}';`;
/** A relative sample resolves to a file of the repository. */
const resolves = (file: string, specifier: string) =>
  !specifier.startsWith('.') || existsSync(resolve(import.meta.dirname, dirname(file), specifier));

const LAYERS = 'import-x/no-restricted-paths';
const TEST_SUPPORT = 'no-restricted-imports';
const CYCLE = 'import-x/no-cycle';

describe('the layout rules', () => {
  it.each([
    ['a guest feature importing staff code', 'apps/api/src/guest/photo/photo-thing.ts', '../../staff/auth/auth.service.ts', LAYERS],
    ['platform importing a guest feature', 'apps/api/src/platform/thing.ts', '../guest/ticket/ticket.service.ts', LAYERS],
    ['platform/jobs importing an integration', 'apps/api/src/platform/jobs/thing.ts', '../../integrations/email/mailer.ts', LAYERS],
    ['a guest feature importing another guest feature', 'apps/api/src/guest/share/thing.ts', '../photo/photo.repo.ts', LAYERS],
    ['a guest feature climbing out to another', 'apps/api/src/guest/share/thing.ts', '../../guest/photo/photo.repo.ts', LAYERS],
    [
      "a feed climbing out to another system's",
      'apps/api/src/integrations/pos/thing.ts',
      '../../integrations/ticketing/orders.repo.ts',
      LAYERS,
    ],
    [
      'a staff core file climbing out to a staff feature',
      'apps/api/src/staff/resources/thing.ts',
      '../../staff/deliveries/deliveries.service.ts',
      LAYERS,
    ],
    ['the ticket core importing a guest feature', 'apps/api/src/guest/ticket/thing.ts', '../pass/pass.repo.ts', LAYERS],
    ["one system's feed importing another's", 'apps/api/src/integrations/pos/thing.ts', '../ticketing/orders.repo.ts', LAYERS],
    ['an integration importing guest code', 'apps/api/src/integrations/email/thing.ts', '../../guest/share/share.repo.ts', LAYERS],
    ['an integration importing the wallet', 'apps/api/src/integrations/email/thing.ts', '../../wallet/member-cards.service.ts', LAYERS],
    ['a staff feature importing the app', 'apps/api/src/staff/deliveries/thing.ts', '../../app.ts', LAYERS],
    ['the loyalty core importing a guest feature', 'apps/api/src/loyalty/thing.ts', '../guest/share/share.repo.ts', LAYERS],
    ['the loyalty core importing the wallet', 'apps/api/src/loyalty/thing.ts', '../wallet/member-cards.service.ts', LAYERS],
    ['the wallet importing a guest feature', 'apps/api/src/wallet/thing.ts', '../guest/photo/photo.repo.ts', LAYERS],
    ['a wallet subfolder importing a guest feature', 'apps/api/src/wallet/apple/thing.ts', '../../guest/share/share.repo.ts', LAYERS],
    ['the wallet importing staff code', 'apps/api/src/wallet/deliveries/thing.ts', '../../staff/deliveries/deliveries.service.ts', LAYERS],
    ['the wallet importing the app', 'apps/api/src/wallet/thing.ts', '../app.ts', LAYERS],
    ['the ticket core importing the wallet', 'apps/api/src/guest/ticket/thing.ts', '../../wallet/wallet-passes.repo.ts', LAYERS],
    ['platform importing the wallet', 'apps/api/src/platform/jobs/thing.ts', '../../wallet/deliveries/wallet-deliveries.jobs.ts', LAYERS],
    ["the wallet's Apple side importing its Google side", 'apps/api/src/wallet/apple/thing.ts', '../google/google-wallet.ts', LAYERS],
    ["the wallet's Google side importing its Apple side", 'apps/api/src/wallet/google/thing.ts', '../apple/apns.ts', LAYERS],
    ['the loyalty core importing staff code', 'apps/api/src/loyalty/thing.ts', '../staff/audit/audit.repo.ts', LAYERS],
    ['an integration importing the loyalty core', 'apps/api/src/integrations/pos/thing.ts', '../../loyalty/loyalty.repo.ts', LAYERS],
    [
      "a file in a guest feature's subfolder importing another feature",
      'apps/api/src/guest/share/parts/thing.ts',
      '../../photo/photo.repo.ts',
      LAYERS,
    ],
    [
      "a file in a staff feature's subfolder importing another staff feature",
      'apps/api/src/staff/wristbands/rules/thing.ts',
      '../../deliveries/deliveries.service.ts',
      LAYERS,
    ],
    ['product code importing test support', 'apps/api/src/guest/pass/thing.ts', '../../../test-support/test-app.ts', TEST_SUPPORT],
    ['product code importing a test database', 'packages/db/src/thing.ts', '@boardwalk/db/test-support/test-database', TEST_SUPPORT],
    ['entry points importing test support', 'apps/api/src/server-thing.ts', '../test-support/fixtures.ts', TEST_SUPPORT],
    ['a guest page importing the staff area', 'apps/web/src/guest/pass/thing.ts', '../../staff/auth/staff-session.ts', LAYERS],
    ['ui importing a feature', 'apps/web/src/ui/thing.tsx', '../guest/ticket/pass-card.tsx', LAYERS],
    ['lib importing a feature', 'apps/web/src/lib/thing.ts', '../staff/auth/staff-session.ts', LAYERS],
    ['a web feature importing the app shell', 'apps/web/src/guest/pass/thing.tsx', '../../app/router.tsx', LAYERS],
    ['a web guest feature importing another guest feature', 'apps/web/src/guest/wristband/thing.tsx', '../photo/photo-section.tsx', LAYERS],
    [
      "a file in a web guest feature's subfolder importing another guest feature",
      'apps/web/src/guest/wristband/parts/thing.tsx',
      '../../photo/photo-section.tsx',
      LAYERS,
    ],
    ['a guest section importing the page that shows it', 'apps/web/src/guest/wallet/thing.tsx', '../pass/pass-view.tsx', LAYERS],
    ['the web ticket core importing a guest feature', 'apps/web/src/guest/ticket/thing.ts', '../wallet/wallet-api.ts', LAYERS],
    [
      'a web staff feature importing another staff feature',
      'apps/web/src/staff/deliveries/thing.tsx',
      '../loyalty/loyalty-page.tsx',
      LAYERS,
    ],
    ['the web staff core importing a staff feature', 'apps/web/src/staff/admin/thing.tsx', '../wristbands/wristbands-page.tsx', LAYERS],
    ['the staff area importing a guest page', 'apps/web/src/staff/loyalty/thing.tsx', '../../guest/loyalty/claim-page.tsx', LAYERS],
    ['the shared loyalty forms importing a guest feature', 'apps/web/src/loyalty/thing.tsx', '../guest/loyalty/loyalty-api.ts', LAYERS],
  ])('rejects %s', async (_what, file, specifier, rule) => {
    expect(await reported(file, importing(specifier))).toContain(rule);
  });

  it('rejects a lazy import of another guest feature', async () => {
    const code = `export const later = import('../share/share-rules.ts');`;
    expect(await reported('apps/web/src/guest/stored-value/thing.ts', code)).toContain(LAYERS);
  });

  it.each([
    [
      'a guest feature importing the ticket core and platform',
      'apps/api/src/guest/share/thing.ts',
      ['../ticket/ticket.repo.ts', '../../platform/errors.ts', '../../integrations/email/mailer.ts'],
    ],
    [
      'a feed importing the shared ingest code',
      'apps/api/src/integrations/pos/thing.ts',
      ['../ingest.service.ts', '../../platform/errors.ts'],
    ],
    [
      'a staff feature importing the staff core and guest code',
      'apps/api/src/staff/deliveries/thing.ts',
      ['../resources/resource-schemas.ts', '../auth/auth.service.ts', '../../guest/ticket/ticket.repo.ts'],
    ],
    [
      'the loyalty core importing the ticket core, integrations and platform',
      'apps/api/src/loyalty/thing.ts',
      [
        '../guest/ticket/ticket.repo.ts',
        '../integrations/ticketing/ticket-lock.repo.ts',
        '../integrations/pos/checks.repo.ts',
        '../platform/errors.ts',
      ],
    ],
    [
      'guest, wallet and staff features importing the loyalty core',
      'apps/api/src/wallet/thing.ts',
      ['../loyalty/loyalty.repo.ts', '../loyalty/loyalty-member.service.ts'],
    ],
    ['a staff feature importing the loyalty core', 'apps/api/src/staff/loyalty/thing.ts', ['../../loyalty/loyalty.service.ts']],
    [
      "a file in a feature's subfolder importing its own feature and the ticket core",
      'apps/api/src/wallet/apple/thing.ts',
      ['../wallet-passes.repo.ts', '../../guest/ticket/ticket.repo.ts'],
    ],
    [
      'the wallet importing the ticket core, the loyalty core, integrations and platform',
      'apps/api/src/wallet/deliveries/thing.ts',
      [
        '../../guest/ticket/ticket.service.ts',
        '../../loyalty/loyalty.topics.ts',
        '../../integrations/ticketing/ticket.topics.ts',
        '../../platform/jobs/delivery.ts',
        '../apple/apns.ts',
        '../google/google-wallet.ts',
      ],
    ],
    [
      "staff code importing the wallet's entry points",
      'apps/api/src/staff/dashboard/thing.ts',
      ['../../wallet/wallet-figures.repo.ts', '../../wallet/member-cards.service.ts', '../../wallet/apple/apple-certificate-expiry.ts'],
    ],
    ["guest code importing the wallet's entry points", 'apps/api/src/guest/loyalty/thing.ts', ['../../wallet/member-cards.service.ts']],
    ['the app importing everything', 'apps/api/src/app-thing.ts', ['./staff/auth/staff-auth.plugin.ts', './guest/pass/pass.routes.ts']],
    [
      'a test importing test support',
      'apps/api/src/guest/pass/thing.test.ts',
      ['../../../test-support/test-app.ts', '@boardwalk/db/test-support/test-database'],
    ],
    [
      'a web guest feature importing the ticket core, the shared loyalty forms, lib and ui',
      'apps/web/src/guest/loyalty/thing.tsx',
      ['../ticket/get-pass.ts', '../../loyalty/claim-form.tsx', '../../lib/format.ts', '../../ui/busy-button.tsx'],
    ],
    [
      'the pass page and the loyalty pages showing the sections they declare',
      'apps/web/src/guest/pass/thing.tsx',
      ['../photo/photo-section.tsx', '../share/share-section.tsx', '../wallet/wallet-actions.tsx'],
    ],
    ['the loyalty pages showing the wallet buttons', 'apps/web/src/guest/loyalty/thing.tsx', ['../wallet/loyalty-wallet-actions.tsx']],
    [
      'a web staff feature importing the staff core and the shared loyalty forms',
      'apps/web/src/staff/loyalty/thing.tsx',
      ['../admin/staff-loading.tsx', '../auth/staff-api.ts', '../resources/resource-list.tsx', '../../loyalty/member-forms.tsx'],
    ],
    [
      "a file in a web feature's subfolder importing its own feature and the staff core",
      'apps/web/src/staff/resources/fields/thing.tsx',
      ['../resource-api.ts', '../../auth/staff-session.ts'],
    ],
    [
      "the staff area's routes importing its pages",
      'apps/web/src/staff/thing.tsx',
      ['./admin/admin-page.tsx', './loyalty/loyalty-page.tsx', './deliveries/deliveries-page.tsx'],
    ],
    ['the app shell importing the features', 'apps/web/src/app/thing.tsx', ['../guest/pass/pass-page.tsx', '../staff/staff-routes.tsx']],
  ])('allows %s', async (_what, file, specifiers) => {
    for (const specifier of specifiers) expect(resolves(file, specifier), specifier).toBe(true);
    expect(await reported(file, specifiers.map(importing).join('\n'))).toEqual([]);
  });

  // A planted cycle: the text linted stands at an existing file's path and imports a file that
  // imports that path back (error-handler.ts imports errors.ts; site.ts imports api-client.ts).
  it.each([
    ['in the API', 'apps/api/src/platform/errors.ts', './error-handler.ts'],
    ['in the web app', 'apps/web/src/lib/api-client.ts', './site.ts'],
    ['in a package', 'packages/db/src/client.ts', './prepared.ts'],
  ])('rejects an import cycle %s', async (_where, file, specifier) => {
    expect(resolves(file, specifier), specifier).toBe(true);
    expect(await reported(file, importing(specifier))).toContain(CYCLE);
  });

  it('allows an import of a file that does not import back', async () => {
    expect(await reported('apps/api/src/platform/error-handler.ts', importing('./errors.ts'))).not.toContain(CYCLE);
  });

  // The guest pages' first-screen budget: their contract modules and the web code outside the
  // back office import zod/mini, never classic Zod (eslint.config.js "zod/mini only").
  const CLASSIC_ZOD = 'no-restricted-imports';
  it.each([
    ['a guest contract module', 'packages/contract/src/pass.ts', `import { z } from 'zod';`],
    ['a guest contract module, through zod/v4', 'packages/contract/src/wallet.ts', `import { z } from 'zod/v4';`],
    ['a guest contract module, its types only', 'packages/contract/src/loyalty-statement.ts', `import type { ZodType } from 'zod';`],
    ['a guest page', 'apps/web/src/guest/share/thing.ts', `import { z } from 'zod';`],
    ["the web app's lib", 'apps/web/src/lib/thing.ts', `import type { z } from 'zod';`],
    ['the shared loyalty forms', 'apps/web/src/loyalty/thing.tsx', `import { z } from 'zod';`],
  ])('rejects classic Zod in %s', async (_what, file, code) => {
    expect(await reported(file, code)).toContain(CLASSIC_ZOD);
  });

  it.each([
    [
      'zod/mini in a guest contract module',
      'packages/contract/src/pass.ts',
      `import { z } from 'zod/mini';\nexport const text = z.string();`,
    ],
    ['zod/mini in a guest page', 'apps/web/src/guest/photo/thing.ts', `import { z } from 'zod/mini';\nexport const text = z.string();`],
    [
      'classic Zod in a back office contract module',
      'packages/contract/src/staff-loyalty.ts',
      `import { z } from 'zod';\nexport const text = z.string();`,
    ],
    ['classic Zod in the back office', 'apps/web/src/staff/loyalty/thing.tsx', `import { z } from 'zod';\nexport const text = z.string();`],
    ['classic Zod in the API', 'apps/api/src/guest/pass/thing.ts', `import { z } from 'zod';\nexport const text = z.string();`],
  ])('allows %s', async (_what, file, code) => {
    expect(await reported(file, code)).toEqual([]);
  });

  it('rejects the date-fns index in product code, and takes a function from its own module', async () => {
    const DATE_FNS_INDEX = 'no-restricted-imports';
    expect(await reported('apps/api/src/platform/thing.ts', `import { addDays } from 'date-fns';`)).toContain(DATE_FNS_INDEX);
    expect(await reported('apps/web/src/guest/pass/thing.ts', `import { addDays } from 'date-fns';`)).toContain(DATE_FNS_INDEX);
    expect(
      await reported('apps/api/src/platform/thing.ts', `import { addDays } from 'date-fns/addDays';\nexport const later = addDays;`),
    ).toEqual([]);
  });

  it('still rejects test support in the guest contract modules', async () => {
    expect(await reported('packages/contract/src/pass.ts', importing('@boardwalk/db/test-support/test-database'))).toContain(TEST_SUPPORT);
  });

  it('wants kebab-case file names with an optional role suffix', async () => {
    expect(await reported('apps/api/src/guest/pass/PassThing.ts', '')).toContain('check-file/filename-naming-convention');
    expect(await reported('apps/api/src/guest/pass/pass_thing.repo.ts', '')).toContain('check-file/filename-naming-convention');
    expect(await reported('apps/api/src/guest/pass/pass.thing.ts', '')).toContain('check-file/filename-naming-convention');
    expect(await reported('apps/api/src/guest/pass/pass-thing.routes.ts', '')).toEqual([]);
    expect(await reported('apps/web/src/guest/pass/pass-thing.tsx', '')).toEqual([]);
  });
});

// The layout rules of eslint.config.js (README "Layout") reject what they should and only that.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: import.meta.dirname });

/** The rule ids ESLint reports for this code at this path (the file need not exist). */
async function reported(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const importing = (specifier: string) => `import '${specifier}';`;

describe('the layout rules', () => {
  it.each([
    ['a guest feature importing staff code', 'apps/api/src/guest/photo/photo-thing.ts', '../../staff/auth/auth.service.ts'],
    ['platform importing a guest feature', 'apps/api/src/platform/thing.ts', '../guest/ticket/ticket.service.ts'],
    ['platform/jobs importing an integration', 'apps/api/src/platform/jobs/thing.ts', '../../integrations/email/mailer.ts'],
    ['a guest feature importing another guest feature', 'apps/api/src/guest/wallet/thing.ts', '../photo/photo.repo.ts'],
    ['a guest feature climbing out to another', 'apps/api/src/guest/wallet/thing.ts', '../../guest/photo/photo.repo.ts'],
    ["a feed climbing out to another system's", 'apps/api/src/integrations/pos/thing.ts', '../../integrations/ticketing/orders.repo.ts'],
    [
      'a staff core file climbing out to a staff feature',
      'apps/api/src/staff/resources/thing.ts',
      '../../staff/deliveries/deliveries.service.ts',
    ],
    ['the ticket core importing a guest feature', 'apps/api/src/guest/ticket/thing.ts', '../pass/pass.repo.ts'],
    ["one system's feed importing another's", 'apps/api/src/integrations/pos/thing.ts', '../ticketing/orders.repo.ts'],
    [
      'an integration importing guest code',
      'apps/api/src/integrations/apple-wallet/thing.ts',
      '../../guest/wallet/apple-wallet.service.ts',
    ],
    ['a staff feature importing the app', 'apps/api/src/staff/deliveries/thing.ts', '../../app.ts'],
    ['product code importing test support', 'apps/api/src/guest/pass/thing.ts', '../../../test-support/test-app.ts'],
    ['product code importing a test database', 'packages/db/src/thing.ts', '@boardwalk/db/test-support/test-database'],
    ['entry points importing test support', 'apps/api/src/server-thing.ts', '../test-support/fixtures.ts'],
    ['a guest page importing the staff area', 'apps/web/src/guest/pass/thing.ts', '../../staff/auth/staff-session.ts'],
    ['ui importing a feature', 'apps/web/src/ui/thing.tsx', '../guest/pass/pass-card.tsx'],
  ])('rejects %s', async (_what, file, specifier) => {
    expect(await reported(file, importing(specifier))).toContain('no-restricted-imports');
  });

  it.each([
    [
      'a guest feature importing the ticket core and platform',
      'apps/api/src/guest/wallet/thing.ts',
      ['../ticket/ticket.repo.ts', '../../platform/errors.ts', '../../integrations/apple-wallet/apns.ts'],
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
    ['the app importing everything', 'apps/api/src/app-thing.ts', ['./staff/auth/staff-auth.plugin.ts', './guest/pass/pass.routes.ts']],
    [
      'a test importing test support',
      'apps/api/src/guest/pass/thing.test.ts',
      ['../../../test-support/test-app.ts', '@boardwalk/db/test-support/test-database'],
    ],
  ])('allows %s', async (_what, file, specifiers) => {
    expect(await reported(file, specifiers.map(importing).join('\n'))).toEqual([]);
  });

  it('wants kebab-case file names with an optional role suffix', async () => {
    expect(await reported('apps/api/src/guest/pass/PassThing.ts', '')).toContain('check-file/filename-naming-convention');
    expect(await reported('apps/api/src/guest/pass/pass_thing.repo.ts', '')).toContain('check-file/filename-naming-convention');
    expect(await reported('apps/api/src/guest/pass/pass.thing.ts', '')).toContain('check-file/filename-naming-convention');
    expect(await reported('apps/api/src/guest/pass/pass-thing.routes.ts', '')).toEqual([]);
    expect(await reported('apps/web/src/guest/pass/pass-thing.tsx', '')).toEqual([]);
  });
});

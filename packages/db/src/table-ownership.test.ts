// Every table has one owner (PERSONAL_DATA's `owner`, a folder under apps/api/src): only the
// owner's files import the table from @boardwalk/db/schema; other code reads and writes it
// through the owner's functions. The map's `sharedWith` and SCHEMA_WIDE name the exceptions,
// each with its reason. The imports are read with the TypeScript compiler's parser, so an
// import written over several lines, renamed or mixed with types is read as the compiler reads it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PERSONAL_DATA, SCHEMA_WIDE, type SharedWith, type TableMap } from './personal-data.ts';
import * as schema from './schema.ts';

const API_SRC = join(import.meta.dirname, '../../../apps/api/src');
const SCHEMA = '@boardwalk/db/schema';

/** The product files of the API: not tests, not test support. Paths from apps/api/src. */
function productFiles(dir = API_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' || entry.name === 'node_modules' ? [] : productFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative(API_SRC, path)] : [];
  });
}

/**
 * The names a file takes from the schema as values (type-only imports read no row): the
 * exported names, whatever the file calls them locally; `*` for the whole schema (a namespace
 * import, a re-export of all, or a lazy import()).
 */
export function schemaImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  const isSchema = (node: ts.Node | undefined) => !!node && ts.isStringLiteral(node) && node.text === SCHEMA;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && isSchema(node.moduleSpecifier)) {
      const clause = node.importClause;
      if (clause && !clause.isTypeOnly) {
        if (clause.name) names.push('default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
        }
      }
    } else if (ts.isExportDeclaration(node) && isSchema(node.moduleSpecifier) && !node.isTypeOnly) {
      const clause = node.exportClause;
      if (!clause || ts.isNamespaceExport(clause)) names.push('*');
      else for (const element of clause.elements) if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && isSchema(node.arguments[0])) {
      names.push('*');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

export interface Violation {
  file: string;
  table: string;
  owner: string;
}

const within = (file: string, path: string) => file === path || file.startsWith(`${path}/`);
const allowed = (file: string, shared: SharedWith[] | undefined) => (shared ?? []).some((s) => within(file, s.path));

/** The schema's tables by their exported names, each with its entry in the map. */
function tablesByName(map: TableMap[]): Map<string, TableMap> {
  const byName = new Map<string, TableMap>();
  for (const [name, value] of Object.entries(schema)) {
    const entry = map.find((e) => e.table === value);
    if (entry) byName.set(name, entry);
  }
  return byName;
}

/** The imports of tables by a file outside their owner's folder (file: a path from apps/api/src). */
export function ownershipViolations(files: { file: string; text: string }[], map: TableMap[] = PERSONAL_DATA): Violation[] {
  const tables = tablesByName(map);
  const violations: Violation[] = [];
  for (const { file, text } of files) {
    for (const name of schemaImports(file, text)) {
      if (name === '*' || name === 'default') {
        if (!allowed(file, SCHEMA_WIDE)) violations.push({ file, table: '* (the whole schema)', owner: 'SCHEMA_WIDE' });
        continue;
      }
      const entry = tables.get(name);
      if (!entry || within(file, entry.owner) || allowed(file, entry.sharedWith)) continue;
      violations.push({ file, table: name, owner: entry.owner });
    }
  }
  return violations;
}

const describeViolation = (v: Violation) => `${v.file} imports ${v.table}, owned by ${v.owner}`;

describe('the ownership of tables', () => {
  const files = productFiles().map((file) => ({ file, text: readFileSync(join(API_SRC, file), 'utf8') }));

  it('reads the product files of the API', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.file.endsWith('.test.ts') || f.file.includes('test-support'))).toBe(false);
  });

  it('names an owner folder that exists for every table, and for every exception', () => {
    const folders = new Set(
      productFiles().flatMap((file) =>
        file
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const exists = (path: string) => folders.has(path) || files.some((f) => f.file === path);
    const missing = PERSONAL_DATA.flatMap((e) => [e.owner, ...(e.sharedWith ?? []).map((s) => s.path)])
      .concat(SCHEMA_WIDE.map((s) => s.path))
      .filter((path) => !exists(path));
    expect(missing).toEqual([]);
  });

  it('lets only the owner of a table import it from the schema', () => {
    expect(ownershipViolations(files).map(describeViolation)).toEqual([]);
  });

  it('fails on a planted import of a table the file does not own', () => {
    const planted = [
      "import { eq } from 'drizzle-orm';",
      "import type { Executor } from '@boardwalk/db/client';",
      "import {\n  type loyaltyTiers,\n  tickets as t,\n  emailKey,\n} from '@boardwalk/db/schema';",
      "import { photoResetRequests } from '@boardwalk/db/schema';",
    ].join('\n');
    expect(ownershipViolations([{ file: 'guest/photo/photo-thing.repo.ts', text: planted }])).toEqual([
      { file: 'guest/photo/photo-thing.repo.ts', table: 'tickets', owner: 'integrations/ticketing' },
    ]);
    const whole = "export const later = () => import('@boardwalk/db/schema');";
    expect(ownershipViolations([{ file: 'guest/photo/photo-thing.repo.ts', text: whole }])).toHaveLength(1);
    expect(
      ownershipViolations([{ file: 'staff/resources/resources.repo.ts', text: "import * as s from '@boardwalk/db/schema';" }]),
    ).toEqual([]);
  });

  it('gives a reason for every exception', () => {
    const exceptions = [...PERSONAL_DATA.flatMap((e) => e.sharedWith ?? []), ...SCHEMA_WIDE];
    for (const exception of exceptions) expect(exception.reason.length, exception.path).toBeGreaterThan(20);
  });
});

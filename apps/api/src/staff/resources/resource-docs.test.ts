// The OpenAPI document types every field of every staff tab, from the declarations: the
// create and update bodies and the rows the list answers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resources } from '@boardwalk/contract/staff-navigation';
import { createTestApp, type TestApp } from '../../../test-support/test-app.ts';
import { readableFields, writableFields } from './resource-schemas.ts';

type Schema = {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  format?: string;
};
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
      }
    >
  >;
};

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject('/docs/json')).json() as Doc;
});
afterAll(() => t.close());

/** A type, or a choice whose every branch has one (a nullable field: the type or null). */
const typed = (schema: Schema | undefined): boolean =>
  schema !== undefined &&
  (schema.type !== undefined || (schema.anyOf ?? schema.oneOf ?? []).length > 0) &&
  (schema.anyOf ?? schema.oneOf ?? []).every(typed);

it.each(resources.map((tab) => [tab.title, tab] as const))('%s: every field has a type in /docs/json', (_title, tab) => {
  const untyped: string[] = [];
  const check = (where: string, schema: Schema | undefined, names: string[]) => {
    for (const name of names)
      if (!typed(schema?.properties?.[name])) untyped.push(`${where} ${name}: ${JSON.stringify(schema?.properties?.[name])}`);
  };
  const list = doc.paths[tab.api]!.get!;
  check(
    'list row',
    list.responses['200']!.content!['application/json']!.schema.items,
    readableFields(tab).map((f) => f.name),
  );
  const writable = writableFields(tab).map((f) => f.name);
  if (tab.operations.create)
    check(
      'create body',
      doc.paths[tab.api]!.post!.requestBody!.content['application/json']!.schema,
      writable.filter((n) => !tab.fields.find((f) => f.name === n)!.notOnCreate),
    );
  if (tab.operations.update)
    check('update body', doc.paths[`${tab.api}{id}`]!.put!.requestBody!.content['application/json']!.schema, writable);
  expect(untyped).toEqual([]);
});

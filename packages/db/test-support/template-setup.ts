// Vitest global setup of the API projects: one migrated template for the run's test
// databases (the project's TEST_DB says which kind), removed when the run ends. The projects of
// one kind share it (pglite and pglite-processes): the first to start makes it, the others find
// it named in the environment (a PGlite template takes 4 s to make).
import type { TestProject } from 'vitest/node';
import { prepareTestTemplate, testTemplateReady } from './test-database.ts';

export default async function setup(project: TestProject) {
  const kind = project.config.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  if (testTemplateReady(kind)) return;
  return prepareTestTemplate(kind);
}

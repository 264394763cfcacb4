// Vitest global setup of the API projects: one migrated template for the run's test
// databases (the project's TEST_DB says which kind), removed when the run ends.
import type { TestProject } from 'vitest/node';
import { prepareTestTemplate } from './test-database.ts';

export default function setup(project: TestProject) {
  return prepareTestTemplate(project.config.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');
}

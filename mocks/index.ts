/**
 * The console API mocks, published for host teams' own tests and demos:
 * `import { handlers, scenarios } from '@ops-console/elements/mocks'`.
 */
export { createMockApi, DEFAULT_BASE, handlers, type MockApiOptions, type MockDb, type RecordedWrite } from './handlers.ts';
export { handlersWithScenarios, scenarios, SCENARIO_NAMES, scenarioSlug, type ScenarioName } from './scenarios.ts';
export * as fixtures from './fixtures.ts';
export { requestAt, generateEndpoints, generateActivity } from './generate.ts';
export { problem } from './problem.ts';

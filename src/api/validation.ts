/**
 * What the client needs only to check a response: the contract's schemas (zod with them) and
 * the wording of what was wrong. One chunk, imported with the first request.
 */
export * as schemas from './schemas.ts';
export { describeIssues } from './issues.ts';

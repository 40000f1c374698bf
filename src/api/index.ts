export * from './client.ts';
export * from './errors.ts';
export * from './issues.ts';
export * as schemas from './schemas.ts';
export type * from './schemas.ts';
export * from '@ops-console/contract/enums';

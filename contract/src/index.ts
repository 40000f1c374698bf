/**
 * The Ops Console contract: what the elements and the console server share. Enums, the time
 * window rules, the calendar of an account's zone, list sorting and the zod schemas of every
 * payload.
 */
export * from './enums.ts';
export * from './calendar.ts';
export * from './time-window.ts';
export * from './sort-rows.ts';
export * from './form-words.ts';
export * as schemas from './schemas.ts';
export type * from './schemas.ts';
export * from './routes.ts';
export * from './access.ts';
export * from './route-docs.ts';

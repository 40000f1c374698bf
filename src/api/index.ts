export * from './client.ts';
export * from './errors.ts';
export * from './issues.ts';
export * as schemas from './schemas.ts';
export type * from './schemas.ts';
export {
  ACTIVITY_KINDS,
  CUSTOMER_STATUSES,
  ENDPOINT_SORTS,
  ENDPOINT_STATUSES,
  ERROR_CATEGORIES,
  ERROR_CODES,
  ERROR_STATUSES,
  HISTORY_KINDS,
  HTTP_METHODS,
  METRIC_UNITS,
  WEBHOOK_STATUSES,
} from './schemas.ts';

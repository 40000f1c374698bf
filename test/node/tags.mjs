/** The elements the package promises (the wrapper and the internal chart host aside). */
export const ELEMENT_TAGS = [
  'ops-overview',
  'ops-endpoint-table',
  'ops-request-log',
  'ops-request-detail',
  'ops-endpoint-detail',
  'ops-traffic',
  'ops-customer',
  'ops-customer-list',
  'ops-webhook-list',
  'ops-webhook',
  'ops-error',
  'ops-error-form',
  'ops-error-list',
  'ops-activity-feed',
  'ops-time-range',
];

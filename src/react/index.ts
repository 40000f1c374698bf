'use client';
/**
 * React components for every element, made with `@lit/react`: properties are set as properties
 * (`getToken`, `routes`, `clock`), events are `on…` props with typed details (`onNavigate`,
 * `onErrorCreated`), and server rendering with hydration is safe (see `wrap.ts`). Each also has
 * an entry of its own (`@ops-console/elements/react/ops-endpoint-table.js`), which defines only its tag.
 */
export { OpsConsole } from './ops-console.ts';
export { OpsOverview } from './ops-overview.ts';
export { OpsEndpointTable } from './ops-endpoint-table.ts';
export { OpsActivityFeed } from './ops-activity-feed.ts';
export { OpsRequestLog } from './ops-request-log.ts';
export { OpsTraffic } from './ops-traffic.ts';
export { OpsCustomer } from './ops-customer.ts';
export { OpsWebhook } from './ops-webhook.ts';
export { OpsRequestDetail } from './ops-request-detail.ts';
export { OpsEndpointDetail } from './ops-endpoint-detail.ts';
export { OpsErrorList } from './ops-error-list.ts';
export { OpsCustomerList } from './ops-customer-list.ts';
export { OpsWebhookList } from './ops-webhook-list.ts';
export { OpsTimeRange } from './ops-time-range.ts';
export { OpsError } from './ops-error.ts';
export { OpsErrorForm } from './ops-error-form.ts';
export { eventProp, type EventProp, type OpsReactComponent } from './wrap.ts';

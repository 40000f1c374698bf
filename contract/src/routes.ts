/**
 * Every route of the Ops Console server, declared once. The elements' client takes its paths
 * from here, the OpenAPI document is generated from here (with the summaries and query schemas
 * of `route-docs.ts`), and tests hold the server's routes, the mock API's handlers and the
 * contract's docs to this table.
 *
 * Only what a call needs: the client's core imports this table (no zod, no prose); the schemas
 * come with its first answer.
 */

import type { CUSTOMER_VIEWS } from './enums.ts';

export type CustomerView = (typeof CUSTOMER_VIEWS)[number];

/** Where each group of routes is mounted (the comments say who may call it). */
export const ROUTE_GROUPS = {
  /** What the elements read and write, with a console token. */
  console: { base: '/console/v1' },
  /** What collectors send, with an ingest key. */
  ingest: { base: '/ingest/v1' },
  /** OpenTelemetry exporters' traces (OTLP/HTTP), with an ingest key. */
  otlp: { base: '/v1' },
  /** An API company's back office: customers, webhooks, activity, with an admin key. */
  admin: { base: '/admin/v1' },
  /** For operators and their probes: no account. */
  operations: { base: '' },
} as const;

export type RouteGroup = keyof typeof ROUTE_GROUPS;

export interface Route {
  group: RouteGroup;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the group's base, with `{id}` for a path parameter. */
  path: string;
  /** The schema (in `schemas.ts`) of the success body, for console routes. */
  response?: string;
  /** The schema of the request body, for console writes. */
  body?: string;
  /** The success status (200 unless said). */
  status?: number;
  /** Needs an `Idempotency-Key` header. */
  idempotent?: boolean;
  /**
   * A console write: an operator needs the `editor` role (reads need `viewer`; the admin group
   * needs `admin`). See `access.ts`.
   */
  writes?: boolean;
  /** The customer console's view this route serves: a customer-scoped token may call it, within its customer. Without it, the route is for operators only. */
  customerView?: CustomerView;
}

export const ROUTES = {
  overview: { group: 'console', method: 'GET', path: '/overview', response: 'overview', customerView: 'overview' },
  endpoints: { group: 'console', method: 'GET', path: '/endpoints', response: 'endpointPage', customerView: 'endpoints' },
  endpoint: {
    group: 'console',
    method: 'GET',
    path: '/endpoints/{id}',
    response: 'endpointDetail',
    customerView: 'endpoints',
  },
  requests: { group: 'console', method: 'GET', path: '/requests', response: 'requestPage', customerView: 'requests' },
  requestSummary: {
    group: 'console',
    method: 'GET',
    path: '/requests/summary',
    response: 'requestSummary',
    customerView: 'requests',
  },
  request: {
    group: 'console',
    method: 'GET',
    path: '/requests/{id}',
    response: 'requestDetail',
    customerView: 'requests',
  },
  traffic: { group: 'console', method: 'GET', path: '/traffic', response: 'traffic', customerView: 'traffic' },
  customers: { group: 'console', method: 'GET', path: '/customers', response: 'customerPage' },
  customer: { group: 'console', method: 'GET', path: '/customers/{id}', response: 'customer' },
  addNote: {
    group: 'console',
    method: 'POST',
    path: '/customers/{id}/notes',
    body: 'newNote',
    response: 'note',
    status: 201,
    idempotent: true,
    writes: true,
  },
  webhooks: { group: 'console', method: 'GET', path: '/webhooks', response: 'webhookPage', customerView: 'webhooks' },
  webhook: {
    group: 'console',
    method: 'GET',
    path: '/webhooks/{id}',
    response: 'webhook',
    customerView: 'webhooks',
  },
  errors: { group: 'console', method: 'GET', path: '/errors', response: 'errorPage' },
  createError: {
    group: 'console',
    method: 'POST',
    path: '/errors',
    body: 'newErrorRecord',
    response: 'errorRecord',
    status: 201,
    idempotent: true,
    writes: true,
  },
  errorOptions: { group: 'console', method: 'GET', path: '/errors/options', response: 'errorOptions' },
  error: {
    group: 'console',
    method: 'GET',
    path: '/errors/{id}',
    response: 'errorRecord',
  },
  updateError: {
    group: 'console',
    method: 'PATCH',
    path: '/errors/{id}',
    body: 'errorPatch',
    response: 'errorRecord',
    writes: true,
  },
  activity: { group: 'console', method: 'GET', path: '/activity', response: 'activityPage' },
  versions: { group: 'console', method: 'GET', path: '/versions', response: 'versions' },
  alertChannels: { group: 'console', method: 'GET', path: '/alert-channels', response: 'alertChannelList' },
  createAlertChannel: {
    group: 'console',
    method: 'POST',
    path: '/alert-channels',
    body: 'newAlertChannel',
    response: 'alertChannel',
    status: 201,
    idempotent: true,
    writes: true,
  },
  updateAlertChannel: {
    group: 'console',
    method: 'PATCH',
    path: '/alert-channels/{id}',
    body: 'alertChannelPatch',
    response: 'alertChannel',
    writes: true,
  },
  deleteAlertChannel: { group: 'console', method: 'DELETE', path: '/alert-channels/{id}', response: 'alertChannel', writes: true },
  testAlertChannel: {
    group: 'console',
    method: 'POST',
    path: '/alert-channels/{id}/test',
    response: 'alertNotification',
    writes: true,
  },
  alertRules: { group: 'console', method: 'GET', path: '/alert-rules', response: 'alertRuleList' },
  createAlertRule: {
    group: 'console',
    method: 'POST',
    path: '/alert-rules',
    body: 'newAlertRule',
    response: 'alertRule',
    status: 201,
    idempotent: true,
    writes: true,
  },
  updateAlertRule: {
    group: 'console',
    method: 'PATCH',
    path: '/alert-rules/{id}',
    body: 'alertRulePatch',
    response: 'alertRule',
    writes: true,
  },
  deleteAlertRule: { group: 'console', method: 'DELETE', path: '/alert-rules/{id}', response: 'alertRule', writes: true },
  alerts: { group: 'console', method: 'GET', path: '/alerts', response: 'alertPage' },
  slos: { group: 'console', method: 'GET', path: '/slos', response: 'sloList' },
  createSlo: { group: 'console', method: 'POST', path: '/slos', body: 'newSlo', response: 'slo', status: 201, idempotent: true, writes: true },
  slo: { group: 'console', method: 'GET', path: '/slos/{id}', response: 'sloDetail' },
  updateSlo: { group: 'console', method: 'PATCH', path: '/slos/{id}', body: 'sloPatch', response: 'slo', writes: true },
  deleteSlo: { group: 'console', method: 'DELETE', path: '/slos/{id}', response: 'slo', writes: true },
  keys: { group: 'console', method: 'GET', path: '/keys', response: 'keyPage', customerView: 'keys' },
  key: { group: 'console', method: 'GET', path: '/keys/{id}', response: 'apiKey', customerView: 'keys' },

  ingestRequests: { group: 'ingest', method: 'POST', path: '/requests', status: 202 },
  ingestWebhookDeliveries: { group: 'ingest', method: 'POST', path: '/webhook-deliveries', status: 202 },
  otlpTraces: { group: 'otlp', method: 'POST', path: '/traces' },
  putCustomer: { group: 'admin', method: 'PUT', path: '/customers/{id}' },
  putWebhook: { group: 'admin', method: 'PUT', path: '/webhooks/{id}' },
  addActivity: { group: 'admin', method: 'POST', path: '/activity', status: 201 },
  putRateLimit: { group: 'admin', method: 'PUT', path: '/customers/{id}/limits' },
  putKey: { group: 'admin', method: 'PUT', path: '/keys/{id}' },
  putDeprecation: { group: 'admin', method: 'PUT', path: '/deprecations/{id}' },
  addVersion: { group: 'admin', method: 'POST', path: '/versions', status: 201 },
  createEmbedSession: { group: 'admin', method: 'POST', path: '/embed-sessions', status: 201 },
  endEmbedSession: { group: 'admin', method: 'DELETE', path: '/embed-sessions/{id}', status: 204 },
  endCustomerEmbedSessions: { group: 'admin', method: 'DELETE', path: '/customers/{id}/embed-sessions', status: 204 },
  erasePayloads: { group: 'admin', method: 'DELETE', path: '/customers/{id}/payloads' },

  health: { group: 'operations', method: 'GET', path: '/healthz' },
  ready: { group: 'operations', method: 'GET', path: '/readyz' },
  metrics: { group: 'operations', method: 'GET', path: '/metrics' },
  elements: { group: 'operations', method: 'GET', path: '/elements/*' },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;
export type ConsoleRouteName = { [K in RouteName]: (typeof ROUTES)[K]['group'] extends 'console' ? K : never }[RouteName];

/** The route's full path, as a server mounts it: `/console/v1/errors/{id}`. */
export const fullPath = (route: Route): string => `${ROUTE_GROUPS[route.group].base}${route.path}`;

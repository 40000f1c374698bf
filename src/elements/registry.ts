/**
 * Every element of the package, once. `npm run build` (scripts/elements.mjs) generates from it
 * what would otherwise be kept by hand in a dozen places: `src/all.ts`, the autoloader's map
 * (`src/autoload/element-chunks.ts`), the React components (`src/react/`), the package's
 * per-element exports, and the routed console's pages, sections and drill-down kinds; the tests and the bench read their tag lists from it. `npm run create
 * <name>` adds a line here with the element's folder. Nothing at run time imports this module.
 */
import type { CustomerView } from '@ops-console/contract/access';

/** How a test (and the bench) shows an element loaded on the known data. */
export interface ElementSample {
  /** Attributes besides `api-base` (and `time-zone`, UTC in tests). */
  attrs: Readonly<Record<string, string>>;
  /** A selector in its shadow root that matches once its data is shown. */
  loaded: string;
  /** What it shows, in the words of its empty and error states ("endpoints", "this request"). */
  noun: string;
  /** Whether it shows enum values (statuses, plans) that an unknown value must not break. */
  showsEnums?: boolean;
  /** Whether it draws a chart. */
  chart?: boolean;
}

/** An element's page in the routed console (`<ops-console routing>`). */
export interface ElementView {
  /** Its path below the console's base (`/endpoints/:id`); a path with `:id` comes after the fixed ones it overlaps. */
  path: `/${string}`;
  /** The attribute the path's `:id` sets (`endpoint-id`). */
  idAttribute?: string;
  /** Attributes read from the address's query, as attribute → query parameter (`customer-id` → `customerId`). */
  query?: Readonly<Record<string, string>>;
  /** The drill-down kind whose links lead here (`endpoint`): the console's `routes` and `NavigateKind` come from it. */
  kind?: string;
  /** The navigation section it is the page of, in English (`Endpoints`); sections keep the registry's order. */
  section?: string;
  /** The contract's customer view it belongs to: a customer's console (`audience="customer"`) has this page too. */
  customerView?: CustomerView;
}

export interface ElementEntry {
  /** `ops-` and the name of its folder under `src/elements/`. */
  tag: `ops-${string}`;
  /** Its class, exported by the package's index (`OpsEndpointTable`), in `ops-<name>.ts`. */
  className: `Ops${string}`;
  /** What it is, in one line: the React component's documentation. */
  summary: string;
  /** The `ops-*` events it dispatches that React gets `on…` props for. */
  events: readonly `ops-${string}`[];
  /** The wrapper `<ops-console>`: part of the on-demand core, not loaded as a chunk of its own. */
  wrapper?: true;
  /** How tests show it loaded; absent for elements with no data of their own. */
  sample?: ElementSample;
  /** Its page in the routed console; absent for the wrapper and the controls in its navigation. */
  view?: ElementView;
}

export const ELEMENTS = [
  {
    tag: 'ops-console',
    className: 'OpsConsole',
    summary: 'The configuration for every element inside it: `apiBase`, `getToken`, `routes`, `locale`, `timeZone`.',
    events: [],
    wrapper: true,
  },
  {
    tag: 'ops-overview',
    className: 'OpsOverview',
    summary: 'The overview: greeting, figures, charts, recent endpoints and activity.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="figure"]', noun: 'the overview', chart: true },
    view: { path: '/', section: 'Overview', customerView: 'overview' },
  },
  {
    tag: 'ops-endpoint-table',
    className: 'OpsEndpointTable',
    summary: 'The endpoints table.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'endpoints', showsEnums: true },
    view: { path: '/endpoints', query: { q: 'q' }, kind: 'endpoints', section: 'Endpoints', customerView: 'endpoints' },
  },
  {
    tag: 'ops-request-log',
    className: 'OpsRequestLog',
    summary: 'The request log (timeline or summary).',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="row"]', noun: 'requests', showsEnums: true },
    view: {
      path: '/requests',
      query: { 'customer-id': 'customerId', 'endpoint-id': 'endpointId', 'key-id': 'keyId', status: 'status' },
      kind: 'requests',
      section: 'Requests',
      customerView: 'requests',
    },
  },
  {
    tag: 'ops-request-detail',
    className: 'OpsRequestDetail',
    summary: 'One request with everything recorded about it.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'request-id': 'rq_59645962' }, loaded: '.facts', noun: 'this request', showsEnums: true },
    view: { path: '/requests/:id', idAttribute: 'request-id', kind: 'request', customerView: 'requests' },
  },
  {
    tag: 'ops-endpoint-detail',
    className: 'OpsEndpointDetail',
    summary: 'One endpoint: figures, daily charts, status codes, customers, errors and requests.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'endpoint-id': 'ep_4' }, loaded: '.facts', noun: 'this endpoint', showsEnums: true },
    view: { path: '/endpoints/:id', idAttribute: 'endpoint-id', kind: 'endpoint', customerView: 'endpoints' },
  },
  {
    tag: 'ops-traffic',
    className: 'OpsTraffic',
    summary: 'Traffic: metrics, requests over time, error rate and breakdown.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="metric"]', noun: 'traffic', showsEnums: true, chart: true },
    view: { path: '/traffic', section: 'Traffic', customerView: 'traffic' },
  },
  {
    tag: 'ops-versions',
    className: 'OpsVersions',
    summary: 'API versions and deprecations: requests per version, and who still calls what turns off.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="versions"] tbody tr', noun: 'API versions', chart: true },
    view: { path: '/versions', section: 'Versions' },
  },
  {
    tag: 'ops-customer',
    className: 'OpsCustomer',
    summary: "A customer's page.",
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'customer-id': 'cus_acme' }, loaded: '.facts', noun: 'this customer', showsEnums: true },
    view: { path: '/customers/:id', idAttribute: 'customer-id', kind: 'customer' },
  },
  {
    tag: 'ops-customer-list',
    className: 'OpsCustomerList',
    summary: 'The customers, searchable and sortable.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'customers', showsEnums: true },
    view: { path: '/customers', kind: 'customers', section: 'Customers' },
  },
  {
    tag: 'ops-key-list',
    className: 'OpsKeyList',
    summary: 'The API keys, registered or seen in traffic: searchable, filterable and sortable.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'API keys', showsEnums: true },
    view: { path: '/keys', query: { 'customer-id': 'customerId', status: 'status' }, kind: 'keys', section: 'Keys', customerView: 'keys' },
  },
  {
    tag: 'ops-key',
    className: 'OpsKey',
    summary: "An API key's page: figures, requests over time, endpoints and versions used, latest requests.",
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'key-id': 'key_live_acme_0' }, loaded: '.facts', noun: 'this API key', showsEnums: true, chart: true },
    view: { path: '/keys/:id', idAttribute: 'key-id', kind: 'key', customerView: 'keys' },
  },
  {
    tag: 'ops-webhook-list',
    className: 'OpsWebhookList',
    summary: 'The webhooks, searchable and sortable.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'webhooks', showsEnums: true },
    view: { path: '/webhooks', kind: 'webhooks', section: 'Webhooks', customerView: 'webhooks' },
  },
  {
    tag: 'ops-webhook',
    className: 'OpsWebhook',
    summary: "A webhook's page.",
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'webhook-id': 'wh_invoice_paid' }, loaded: '.facts', noun: 'this webhook', showsEnums: true, chart: true },
    view: { path: '/webhooks/:id', idAttribute: 'webhook-id', kind: 'webhook', customerView: 'webhooks' },
  },
  {
    tag: 'ops-error',
    className: 'OpsError',
    summary: "An error record's page.",
    events: ['ops-navigate', 'ops-load-error', 'ops-error-updated'],
    sample: { attrs: { 'error-id': 'err_500_webhooks' }, loaded: '.facts', noun: 'this error record', showsEnums: true, chart: true },
    view: { path: '/errors/:id', idAttribute: 'error-id', kind: 'error' },
  },
  {
    tag: 'ops-error-form',
    className: 'OpsErrorForm',
    summary: 'The form that records a new error.',
    events: ['ops-error-created', 'ops-cancel', 'ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: 'form', noun: 'the form' },
    view: { path: '/errors/new', kind: 'new-error' },
  },
  {
    tag: 'ops-error-list',
    className: 'OpsErrorList',
    summary: 'The error records, with status changes in place.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort', 'ops-error-updated'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'error records', showsEnums: true },
    view: { path: '/errors', kind: 'errors', section: 'Errors' },
  },
  {
    tag: 'ops-activity-feed',
    className: 'OpsActivityFeed',
    summary: 'The activity feed.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="item"]', noun: 'activity' },
    view: { path: '/activity', section: 'Activity' },
  },
  {
    tag: 'ops-time-range',
    className: 'OpsTimeRange',
    summary: 'The time range control (last hour … last 12 months, or custom).',
    events: ['ops-range-change'],
  },
  {
    tag: 'ops-alerts',
    className: 'OpsAlerts',
    summary: 'Firing and recent alerts: value against threshold, when each started and resolved, whom it told.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'alerts', showsEnums: true },
    view: { path: '/alerts', query: { state: 'state' }, kind: 'alerts', section: 'Alerts' },
  },
  {
    tag: 'ops-slo',
    className: 'OpsSlo',
    summary: 'An SLO: good share, error budget left, burn rates and the budget’s burn-down.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'slo-id': 'slo_availability' }, loaded: '.facts', noun: 'this SLO', showsEnums: true, chart: true },
    view: { path: '/slos/:id', idAttribute: 'slo-id', kind: 'slo' },
  },
  {
    tag: 'ops-alert-rules',
    className: 'OpsAlertRules',
    summary: 'Alert rules and channels: add, remove, and send a test notification.',
    events: ['ops-load-error'],
    sample: { attrs: {}, loaded: '[part="rule"]', noun: 'alert channels', showsEnums: true },
    view: { path: '/alert-rules', section: 'Alert rules' },
  },
] as const satisfies readonly ElementEntry[];

/** The folder of an element under `src/elements/`. */
export const folderOf = (tag: `ops-${string}`) => tag.slice('ops-'.length);

/**
 * Every element of the package, once. `npm run build` (scripts/elements.mjs) generates from it
 * what would otherwise be kept by hand in a dozen places: `src/all.ts`, the autoloader's map
 * (`src/autoload/element-chunks.ts`), the React components (`src/react/`) and the package's
 * per-element exports; the tests and the bench read their tag lists from it. `npm run create
 * <name>` adds a line here with the element's folder. Nothing at run time imports this module.
 */

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
  },
  {
    tag: 'ops-endpoint-table',
    className: 'OpsEndpointTable',
    summary: 'The endpoints table.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'endpoints', showsEnums: true },
  },
  {
    tag: 'ops-request-log',
    className: 'OpsRequestLog',
    summary: 'The request log (timeline or summary).',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="row"]', noun: 'requests', showsEnums: true },
  },
  {
    tag: 'ops-request-detail',
    className: 'OpsRequestDetail',
    summary: 'One request with everything recorded about it.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'request-id': 'rq_59645962' }, loaded: '.facts', noun: 'this request', showsEnums: true },
  },
  {
    tag: 'ops-endpoint-detail',
    className: 'OpsEndpointDetail',
    summary: 'One endpoint: figures, daily charts, status codes, customers, errors and requests.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'endpoint-id': 'ep_4' }, loaded: '.facts', noun: 'this endpoint', showsEnums: true },
  },
  {
    tag: 'ops-traffic',
    className: 'OpsTraffic',
    summary: 'Traffic: metrics, requests over time, error rate and breakdown.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="metric"]', noun: 'traffic', showsEnums: true, chart: true },
  },
  {
    tag: 'ops-customer',
    className: 'OpsCustomer',
    summary: "A customer's page.",
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'customer-id': 'cus_acme' }, loaded: '.facts', noun: 'this customer', showsEnums: true },
  },
  {
    tag: 'ops-customer-list',
    className: 'OpsCustomerList',
    summary: 'The customers, searchable and sortable.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'customers', showsEnums: true },
  },
  {
    tag: 'ops-webhook-list',
    className: 'OpsWebhookList',
    summary: 'The webhooks, searchable and sortable.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'webhooks', showsEnums: true },
  },
  {
    tag: 'ops-webhook',
    className: 'OpsWebhook',
    summary: "A webhook's page.",
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: { 'webhook-id': 'wh_invoice_paid' }, loaded: '.facts', noun: 'this webhook', showsEnums: true, chart: true },
  },
  {
    tag: 'ops-error',
    className: 'OpsError',
    summary: "An error record's page.",
    events: ['ops-navigate', 'ops-load-error', 'ops-error-updated'],
    sample: { attrs: { 'error-id': 'err_500_webhooks' }, loaded: '.facts', noun: 'this error record', showsEnums: true, chart: true },
  },
  {
    tag: 'ops-error-form',
    className: 'OpsErrorForm',
    summary: 'The form that records a new error.',
    events: ['ops-error-created', 'ops-cancel', 'ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: 'form', noun: 'the form' },
  },
  {
    tag: 'ops-error-list',
    className: 'OpsErrorList',
    summary: 'The error records, with status changes in place.',
    events: ['ops-navigate', 'ops-load-error', 'ops-sort', 'ops-error-updated'],
    sample: { attrs: {}, loaded: 'tbody tr', noun: 'error records', showsEnums: true },
  },
  {
    tag: 'ops-activity-feed',
    className: 'OpsActivityFeed',
    summary: 'The activity feed.',
    events: ['ops-navigate', 'ops-load-error'],
    sample: { attrs: {}, loaded: '[part="item"]', noun: 'activity' },
  },
  {
    tag: 'ops-time-range',
    className: 'OpsTimeRange',
    summary: 'The time range control (last hour … last 12 months, or custom).',
    events: ['ops-range-change'],
  },
] as const satisfies readonly ElementEntry[];

/** The folder of an element under `src/elements/`. */
export const folderOf = (tag: `ops-${string}`) => tag.slice('ops-'.length);

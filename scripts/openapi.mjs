// `npm run openapi`: the console API contract as an OpenAPI 3.1 document, generated from the
// zod schemas in src/api/schemas.ts (the same ones the client validates with).
// `node scripts/openapi.mjs --check` fails when the committed openapi.json is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod/mini';
import * as s from '../src/api/schemas.ts';

const COMPONENTS = {
  Person: s.person,
  MonthSeries: s.monthSeries,
  TimeWindow: s.timeWindow,
  WindowSeries: s.windowSeries,
  CountSeries: s.countSeries,
  RelatedEndpoint: s.relatedEndpoint,
  Overview: s.overview,
  Endpoint: s.endpoint,
  EndpointPage: s.endpointPage,
  RequestEntry: s.requestEntry,
  RequestPage: s.requestPage,
  RequestSummary: s.requestSummary,
  RequestDetail: s.requestDetail,
  Metric: s.metric,
  Traffic: s.traffic,
  Note: s.note,
  NewNote: s.newNote,
  HistoryItem: s.historyItem,
  Customer: s.customer,
  CustomerSummary: s.customerSummary,
  CustomerPage: s.customerPage,
  Webhook: s.webhook,
  EndpointDetail: s.endpointDetail,
  WebhookSummary: s.webhookSummary,
  WebhookPage: s.webhookPage,
  ErrorRecord: s.errorRecord,
  ErrorPage: s.errorPage,
  ErrorOptions: s.errorOptions,
  NewErrorRecord: s.newErrorRecord,
  ErrorPatch: s.errorPatch,
  ActivityItem: s.activityItem,
  ActivityPage: s.activityPage,
  Problem: s.problem,
};

/** Servers may add fields at any time (the contract's rule of change), so no object is closed. */
function open(schema) {
  if (Array.isArray(schema)) return schema.map(open);
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (key === '$schema' || key === '$id') continue;
    out[key] = open(value);
  }
  return out;
}

export function buildOpenApi() {
  const registry = z.registry();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' });

  const ref = (id) => ({ $ref: `#/components/schemas/${id}` });
  const json = (id) => ({ content: { 'application/json': { schema: ref(id) } } });
  const problems = {
    default: {
      description: 'An RFC 9457 problem (4xx/5xx); 422 carries `errors[]` per field.',
      content: { 'application/problem+json': { schema: ref('Problem') } },
    },
  };
  const query = (name, description, schema = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
  const pathId = { name: 'id', in: 'path', required: true, description: 'An opaque id.', schema: { type: 'string' } };
  const paging = [
    query('limit', 'Page size, 1–500 (default 50).', { type: 'integer', minimum: 1, maximum: 500 }),
    query('cursor', 'The `nextCursor` of the previous page.'),
  ];
  const idempotency = {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description: 'A UUID made once per submission and reused on retry; a repeated key returns the same record.',
    schema: { type: 'string', format: 'uuid' },
  };
  const timeRange = [
    query('range', 'A named time range: 1h, 24h, 7d, 30d or 12m (the response adds `window` and `overTime`).', { type: 'string', enum: [...s.TIME_RANGES] }),
    query('from', 'Start of a custom range (with `to`; it wins over `range`).', { type: 'string', format: 'date-time' }),
    query('to', 'End of a custom range, exclusive (with `from`).', { type: 'string', format: 'date-time' }),
  ];
  const get = (summary, id, parameters = []) => ({ get: { summary, parameters, responses: { 200: { description: 'OK', ...json(id) }, ...problems } } });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Ops Console API',
      version: '1.0.0',
      description:
        'The console API that the ops-* elements read. Servers may add fields and enum values at any time; elements ignore unknown fields and show unknown enum values neutrally. Dates are YYYY-MM-DD, timestamps ISO 8601 with offset, percents in percent units (`errorPct: 2.4`).',
    },
    servers: [{ url: '/api/v1', description: 'The base URL a host page sets as api-base.' }],
    paths: {
      '/overview': get('Greeting owner, summary figures and requests by endpoint group', 'Overview', timeRange),
      '/endpoints': get('Every route with its figures (rows may share method and path)', 'EndpointPage', [
        query('status', 'Healthy, Failing or Slow.'),
        query('q', 'Substring of the endpoint label.'),
        query('sort', 'requests, -requests, p95Ms, -p95Ms, errorPct, -errorPct or recent.', { type: 'string', enum: [...s.ENDPOINT_SORTS] }),
        ...timeRange,
        ...paging,
      ]),
      '/endpoints/{id}': get('One endpoint row with its last 30 days (or the asked range), status codes and busiest customers', 'EndpointDetail', [
        pathId,
        ...timeRange,
      ]),
      '/requests': get('The request log, newest first', 'RequestPage', [
        query('method', 'GET, POST, PUT, PATCH or DELETE.'),
        query('status', 'A code such as 500 or a class such as 5xx.'),
        query('path', 'Substring of the path.'),
        query('since', 'Only entries after this timestamp.', { type: 'string', format: 'date-time' }),
        query('endpointId', 'Only the requests an endpoint row counts (its id from GET /endpoints).'),
        query('customerId', "Only one customer's requests."),
        query('range', 'Only entries since the start of this named range: 1h, 24h, 7d, 30d or 12m.', { type: 'string', enum: [...s.TIME_RANGES] }),
        query('from', 'Only entries at or after this timestamp.', { type: 'string', format: 'date-time' }),
        query('to', 'Only entries before this timestamp.', { type: 'string', format: 'date-time' }),
        ...paging,
      ]),
      '/requests/summary': get("Requests grouped by method, path and status with this week's count", 'RequestSummary', [
        query('endpointId', 'Only the requests an endpoint row counts (its id from GET /endpoints).'),
        query('customerId', "Only one customer's requests."),
        ...timeRange,
      ]),
      '/requests/{id}': get('One request with its route, version, key, customer, size and the headers the collector kept', 'RequestDetail', [pathId]),
      '/traffic': get('Traffic metrics, monthly series and breakdown', 'Traffic', [
        query('range', 'Calendar months (12m, the default; 6m, 3m, 1m), or a window: 1h, 24h, 7d or 30d (the response adds `window` and `overTime`).', {
          type: 'string',
          enum: ['1m', '3m', '6m', ...s.TIME_RANGES],
        }),
        ...timeRange.slice(1),
        query('customerId', "Only one customer's requests."),
      ]),
      '/customers': get('Customers with their recent figures, searched and sorted', 'CustomerPage', [
        query('q', 'Substring of the name or id, any case.'),
        query('sort', 'name (default), -name, requests, -requests, createdAt or -createdAt.', { type: 'string', enum: [...s.CUSTOMER_SORTS] }),
        ...paging,
      ]),
      '/customers/{id}': get('A customer with notes and history (newest first)', 'Customer', [pathId]),
      '/customers/{id}/notes': {
        post: {
          summary: 'Add a note; the customer gains a "Note added" history item',
          parameters: [pathId, idempotency],
          requestBody: { required: true, ...json('NewNote') },
          responses: { 201: { description: 'Created', ...json('Note') }, ...problems },
        },
      },
      '/webhooks': get('Webhooks with their delivery figures, searched and sorted', 'WebhookPage', [
        query('q', "Substring of the name, the id or the customer's name, any case."),
        query('sort', 'name (default), -name, deliveredPct, -deliveredPct, lastSentAt or -lastSentAt.', { type: 'string', enum: [...s.WEBHOOK_SORTS] }),
        ...paging,
      ]),
      '/webhooks/{id}': get('A webhook with its monthly activity (and its deliveries over a time range)', 'Webhook', [pathId, ...timeRange]),
      '/errors': {
        ...get('Error records', 'ErrorPage', [
          query('status', 'Open, Fixed or Ignored.'),
          query('endpoint', 'Only the records of one endpoint, by its label (POST /webhooks).'),
          query('sort', 'count, -count, firstSeen or -firstSeen (- is most or newest first); absent, newest recorded first.', {
            type: 'string',
            enum: [...s.ERROR_SORTS],
          }),
          ...paging,
        ]),
        post: {
          summary: 'Create an error record (the server fills title, owner, relatedEndpoints, monthly)',
          parameters: [idempotency],
          requestBody: { required: true, ...json('NewErrorRecord') },
          responses: { 201: { description: 'Created', ...json('ErrorRecord') }, ...problems },
        },
      },
      '/errors/options': get('The endpoints the creation form offers', 'ErrorOptions'),
      '/errors/{id}': {
        ...get('An error record (with its occurrences over a time range)', 'ErrorRecord', [pathId, ...timeRange]),
        patch: {
          summary: 'Change status and/or notes',
          parameters: [pathId],
          requestBody: { required: true, ...json('ErrorPatch') },
          responses: { 200: { description: 'OK', ...json('ErrorRecord') }, ...problems },
        },
      },
      '/activity': get('Latest activity, newest first', 'ActivityPage', [
        query('kind', 'One of the activity kinds.', { type: 'string', enum: [...s.ACTIVITY_KINDS] }),
        ...paging,
      ]),
    },
    components: { schemas: open(schemas) },
  };
}

const file = new URL('../openapi.json', import.meta.url);
const text = `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // No committed file yet: compared as empty.
  }
  if (committed !== text) {
    console.error('openapi.json is out of date with src/api/schemas.ts: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('openapi.json matches the schemas.');
} else if (process.argv[1] === new URL(import.meta.url).pathname) {
  writeFileSync(file, text);
  console.log(`Wrote openapi.json (${Object.keys(buildOpenApi().paths).length} paths).`);
}

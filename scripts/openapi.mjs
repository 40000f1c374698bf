// `npm run openapi`: the console API contract as an OpenAPI 3.1 document, generated from the
// contract's route table (contract/src/routes.ts), its summaries and query schemas (route-docs.ts) and its zod schemas (the
// same ones the client validates with).
// `node scripts/openapi.mjs --check` fails when the committed openapi.json is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { ROUTE_QUERIES, ROUTE_SUMMARIES } from '@ops-console/contract/route-docs';
import { ROUTES } from '@ops-console/contract/routes';
import { roleNeeded } from '@ops-console/contract/access';
import * as s from '@ops-console/contract/schemas';

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
  VersionShare: s.versionShare,
  DeprecationNotice: s.deprecationNotice,
  DeprecationCaller: s.deprecationCaller,
  Deprecation: s.deprecation,
  RateLimit: s.rateLimit,
  Versions: s.versions,
  KeySummary: s.keySummary,
  KeyPage: s.keyPage,
  KeyEndpointShare: s.keyEndpointShare,
  KeyVersionShare: s.keyVersionShare,
  KeyRequest: s.keyRequest,
  ApiKey: s.apiKey,
  AlertScope: s.alertScope,
  AlertChannel: s.alertChannel,
  AlertChannelList: s.alertChannelList,
  NewAlertChannel: s.newAlertChannel,
  AlertChannelPatch: s.alertChannelPatch,
  AlertNotification: s.alertNotification,
  AlertRule: s.alertRule,
  AlertRuleList: s.alertRuleList,
  NewAlertRule: s.newAlertRule,
  AlertRulePatch: s.alertRulePatch,
  Alert: s.alert,
  AlertPage: s.alertPage,
  BurnRates: s.burnRates,
  Slo: s.slo,
  SloList: s.sloList,
  SloDetail: s.sloDetail,
  NewSlo: s.newSlo,
  SloPatch: s.sloPatch,
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

/** The component a schema of the contract is published as (`errorRecord` → `ErrorRecord`). */
function componentOf(schemaName) {
  const found = Object.entries(COMPONENTS).find(([, schema]) => schema === s[schemaName]);
  if (!found) throw new Error(`no component for the schema ${schemaName}`);
  return found[0];
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
  const pathId = { name: 'id', in: 'path', required: true, description: 'An opaque id.', schema: { type: 'string' } };
  const idempotency = {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description: 'A UUID made once per submission and reused on retry; a repeated key returns the same record.',
    schema: { type: 'string', format: 'uuid' },
  };
  /** The query schema's fields as OpenAPI parameters, each described by its schema. */
  const queryParameters = (query) =>
    Object.entries(query.def.shape).map(([name, field]) => {
      const { description, ...schema } = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' });
      delete schema.$schema;
      // A named format says it: zod's long date-time pattern adds nothing a reader needs.
      if (schema.format) delete schema.pattern;
      return { name, in: 'query', required: false, description, schema };
    });
  const paths = {};
  for (const [name, route] of Object.entries(ROUTES)) {
    if (route.group !== 'console') continue;
    const status = route.status ?? 200;
    const operation = {
      summary: ROUTE_SUMMARIES[name],
      // Who may call it, from the route table through the contract's access rules.
      'x-access': { role: roleNeeded(route), ...(route.customerView && { customerView: route.customerView }) },
      parameters: [...(route.path.includes('{id}') ? [pathId] : []), ...(route.idempotent ? [idempotency] : []), ...queryParameters(ROUTE_QUERIES[name])],
      ...(route.body && { requestBody: { required: true, ...json(componentOf(route.body)) } }),
      responses: { [status]: { description: status === 201 ? 'Created' : 'OK', ...json(componentOf(route.response)) }, ...problems },
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Ops Console API',
      version: '1.0.0',
      description:
        'The console API that the ops-* elements read. Servers may add fields and enum values at any time; elements ignore unknown fields and show unknown enum values neutrally. Dates are YYYY-MM-DD, timestamps ISO 8601 with offset, percents in percent units (`errorPct: 2.4`).',
    },
    servers: [{ url: '/api/v1', description: 'The base URL a host page sets as api-base.' }],
    paths,
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
    console.error('openapi.json is out of date with the contract schemas: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('openapi.json matches the schemas.');
} else if (process.argv[1] === new URL(import.meta.url).pathname) {
  writeFileSync(file, text);
  console.log(`Wrote openapi.json (${Object.keys(buildOpenApi().paths).length} paths).`);
}

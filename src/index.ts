/**
 * The package's side-effect-free entry: element classes, the API client and schemas, the
 * formatting helpers and event types. Importing it defines nothing; import
 * `@ops-console/elements/ops-console.js` (or a per-element `define.js`) to register tags.
 */
export { OpsConsole } from './elements/console/ops-console.ts';
export { OpsEndpointTable } from './elements/endpoint-table/ops-endpoint-table.ts';
export { OpsActivityFeed, ACTIVITY_KIND_LABELS } from './elements/activity-feed/ops-activity-feed.ts';
export { OpsOverview } from './elements/overview/ops-overview.ts';
export { OpsRequestLog } from './elements/request-log/ops-request-log.ts';
export { OpsTraffic } from './elements/traffic/ops-traffic.ts';
export { OpsCustomer } from './elements/customer/ops-customer.ts';
export { OpsWebhook } from './elements/webhook/ops-webhook.ts';
export { OpsRequestDetail } from './elements/request-detail/ops-request-detail.ts';
export { OpsEndpointDetail } from './elements/endpoint-detail/ops-endpoint-detail.ts';
export { OpsErrorList } from './elements/error-list/ops-error-list.ts';
export { OpsCustomerList } from './elements/customer-list/ops-customer-list.ts';
export { OpsWebhookList } from './elements/webhook-list/ops-webhook-list.ts';
export { OpsTimeRange } from './elements/time-range/ops-time-range.ts';
export { OpsError } from './elements/error/ops-error.ts';
export { OpsErrorForm } from './elements/error-form/ops-error-form.ts';
export { OpsVersions } from './elements/versions/ops-versions.ts';
export { OpsKeyList } from './elements/key-list/ops-key-list.ts';
export { OpsKey } from './elements/key/ops-key.ts';
export { OpsAlerts } from './elements/alerts/ops-alerts.ts';
export { OpsSlo } from './elements/slo/ops-slo.ts';
export { OpsAlertRules } from './elements/alert-rules/ops-alert-rules.ts';
export { OpsChart } from './shared/chart/ops-chart.ts';
export type { ChartData, ChartSeries } from './shared/chart/chart-data.ts';
export { OpsElement } from './shared/ops-element.ts';
export { consoleConfigContext, type ConsoleConfig } from './shared/config.ts';
export type { CancelDetail, ErrorRecordDetail, LoadErrorDetail, NavigateDetail, OpsEventMap, SortDetail } from './shared/events.ts';
export * from './api/index.ts';
export * as format from './format/format.ts';
export { registerTranslations, localeReady, str, type TemplateMap } from './localize/localize.ts';

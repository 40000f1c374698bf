/**
 * What `<ops-console routing>` loads the first time it is set: every view of the console and
 * the app that shows one per URL. Hosts that route themselves never download it.
 */
import '../overview/define.ts';
import '../endpoint-table/define.ts';
import '../endpoint-detail/define.ts';
import '../request-log/define.ts';
import '../request-detail/define.ts';
import '../traffic/define.ts';
import '../customer/define.ts';
import '../customer-list/define.ts';
import '../webhook/define.ts';
import '../webhook-list/define.ts';
import '../error/define.ts';
import '../error-form/define.ts';
import '../error-list/define.ts';
import '../activity-feed/define.ts';
import '../time-range/define.ts';
import { OpsConsoleApp } from './ops-console-app.ts';

OpsConsoleApp.define('ops-console-app');

declare global {
  interface HTMLElementTagNameMap {
    'ops-console-app': OpsConsoleApp;
  }
}

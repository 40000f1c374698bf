/**
 * The all-in entry for a `<script type="module">` tag: defines every element.
 * Built to `dist/ops-console.all.js` (one request); `dist/ops-console.js` is the on-demand core.
 */
import './elements/console/define.ts';
import './elements/endpoint-table/define.ts';
import './elements/activity-feed/define.ts';
import './elements/overview/define.ts';
import './elements/request-log/define.ts';
import './elements/request-detail/define.ts';
import './elements/endpoint-detail/define.ts';
import './elements/traffic/define.ts';
import './elements/customer/define.ts';
import './elements/customer-list/define.ts';
import './elements/webhook-list/define.ts';
import './elements/time-range/define.ts';
import './elements/webhook/define.ts';
import './elements/error/define.ts';
import './elements/error-form/define.ts';
import './elements/error-list/define.ts';

export * from './index.ts';

import { OpsActivityFeed } from './ops-activity-feed.ts';

OpsActivityFeed.define('ops-activity-feed');

declare global {
  interface HTMLElementTagNameMap {
    'ops-activity-feed': OpsActivityFeed;
  }
}

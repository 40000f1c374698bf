import { OpsActivityFeed } from './ops-activity-feed.ts';

if (!customElements.get('ops-activity-feed')) customElements.define('ops-activity-feed', OpsActivityFeed);

declare global {
  interface HTMLElementTagNameMap {
    'ops-activity-feed': OpsActivityFeed;
  }
}

'use client';
import { OpsActivityFeed as Element } from '../elements/activity-feed/ops-activity-feed.ts';
import '../elements/activity-feed/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-activity-feed>` for React. The activity feed. */
export const OpsActivityFeed = wrap('ops-activity-feed', Element, ['ops-navigate', 'ops-load-error']);

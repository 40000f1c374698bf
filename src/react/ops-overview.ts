'use client';
import { OpsOverview as Element } from '../elements/overview/ops-overview.ts';
import '../elements/overview/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-overview>` for React. The overview: greeting, figures, charts, recent endpoints and activity. */
export const OpsOverview = wrap('ops-overview', Element, ['ops-navigate', 'ops-load-error']);

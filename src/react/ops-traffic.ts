'use client';
import { OpsTraffic as Element } from '../elements/traffic/ops-traffic.ts';
import '../elements/traffic/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-traffic>` for React. Traffic: metrics, requests over time, error rate and breakdown. */
export const OpsTraffic = wrap('ops-traffic', Element, ['ops-navigate', 'ops-load-error']);

'use client';
import { OpsRequestLog as Element } from '../elements/request-log/ops-request-log.ts';
import '../elements/request-log/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-request-log>` for React. The request log (timeline or summary). */
export const OpsRequestLog = wrap('ops-request-log', Element, ['ops-navigate', 'ops-load-error']);

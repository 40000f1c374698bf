'use client';
import { OpsRequestDetail as Element } from '../elements/request-detail/ops-request-detail.ts';
import '../elements/request-detail/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-request-detail>` for React. One request with everything recorded about it. */
export const OpsRequestDetail = wrap('ops-request-detail', Element, ['ops-navigate', 'ops-load-error']);

'use client';
import { OpsEndpointDetail as Element } from '../elements/endpoint-detail/ops-endpoint-detail.ts';
import '../elements/endpoint-detail/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-endpoint-detail>` for React. One endpoint: figures, daily charts, status codes, customers, errors and requests. */
export const OpsEndpointDetail = wrap('ops-endpoint-detail', Element, ['ops-navigate', 'ops-load-error']);

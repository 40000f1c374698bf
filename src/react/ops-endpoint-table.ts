'use client';
import { OpsEndpointTable as Element } from '../elements/endpoint-table/ops-endpoint-table.ts';
import '../elements/endpoint-table/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-endpoint-table>` for React. The endpoints table. */
export const OpsEndpointTable = wrap('ops-endpoint-table', Element, ['ops-navigate', 'ops-load-error', 'ops-sort']);

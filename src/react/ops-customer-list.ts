'use client';
import { OpsCustomerList as Element } from '../elements/customer-list/ops-customer-list.ts';
import '../elements/customer-list/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-customer-list>` for React. The customers, searchable and sortable. */
export const OpsCustomerList = wrap('ops-customer-list', Element, ['ops-navigate', 'ops-load-error', 'ops-sort']);

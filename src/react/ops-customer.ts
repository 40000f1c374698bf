'use client';
import { OpsCustomer as Element } from '../elements/customer/ops-customer.ts';
import '../elements/customer/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-customer>` for React. A customer's page. */
export const OpsCustomer = wrap('ops-customer', Element, ['ops-navigate', 'ops-load-error']);

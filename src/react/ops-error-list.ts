'use client';
import { OpsErrorList as Element } from '../elements/error-list/ops-error-list.ts';
import '../elements/error-list/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-error-list>` for React. The error records, with status changes in place. */
export const OpsErrorList = wrap('ops-error-list', Element, ['ops-navigate', 'ops-load-error', 'ops-sort', 'ops-error-updated']);

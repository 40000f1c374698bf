'use client';
import { OpsError as Element } from '../elements/error/ops-error.ts';
import '../elements/error/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-error>` for React. An error record's page. */
export const OpsError = wrap('ops-error', Element, ['ops-navigate', 'ops-load-error', 'ops-error-updated']);

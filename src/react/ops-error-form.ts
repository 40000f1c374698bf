'use client';
import { OpsErrorForm as Element } from '../elements/error-form/ops-error-form.ts';
import '../elements/error-form/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-error-form>` for React. The form that records a new error. */
export const OpsErrorForm = wrap('ops-error-form', Element, ['ops-error-created', 'ops-cancel', 'ops-navigate', 'ops-load-error']);

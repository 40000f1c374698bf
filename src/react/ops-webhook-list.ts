'use client';
import { OpsWebhookList as Element } from '../elements/webhook-list/ops-webhook-list.ts';
import '../elements/webhook-list/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-webhook-list>` for React. The webhooks, searchable and sortable. */
export const OpsWebhookList = wrap('ops-webhook-list', Element, ['ops-navigate', 'ops-load-error', 'ops-sort']);

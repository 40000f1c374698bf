'use client';
import { OpsWebhook as Element } from '../elements/webhook/ops-webhook.ts';
import '../elements/webhook/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-webhook>` for React. A webhook's page. */
export const OpsWebhook = wrap('ops-webhook', Element, ['ops-navigate', 'ops-load-error']);
